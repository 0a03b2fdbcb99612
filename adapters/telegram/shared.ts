// Telegram's non-text content (location, venue, contact, poll, dice, game, invoice, payment,
// story) and forward origins → the core's shared items. Field translation only: the core words
// them for the model (src/domain/sharedContent.ts).
import type { InboundSharedItem } from '../../src/ingest/inboundEvent.js';
import type { Shared, TgChat, TgOrigin, TgUser } from './shapes.js';

export function displayName(u: TgUser): string {
  return [u.first_name, u.last_name].filter(Boolean).join(' ');
}

/** A chat as people see it named: its title, a person's name, else its @username. */
export function chatTitle(c: TgChat): string | undefined {
  const person = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return c.title ?? (person || (c.username ? `@${c.username}` : undefined));
}

export function sharedOf(s: Shared): InboundSharedItem[] {
  const out: InboundSharedItem[] = [];
  // A venue carries its location too; the venue says more.
  if (s.venue) {
    const v = s.venue;
    out.push({
      kind: 'venue',
      title: v.title,
      address: v.address,
      latitude: v.location.latitude,
      longitude: v.location.longitude,
    });
  } else if (s.location) {
    const l = s.location;
    out.push({
      kind: 'location',
      latitude: l.latitude,
      longitude: l.longitude,
      ...(l.live_period ? { live: true } : {}),
    });
  }
  if (s.contact) {
    const c = s.contact;
    out.push({
      kind: 'contact',
      name: [c.first_name, c.last_name].filter(Boolean).join(' '),
      phone: c.phone_number,
    });
  }
  if (s.poll) {
    const p = s.poll;
    out.push({
      kind: 'poll',
      question: p.question,
      options: p.options.map((o) => o.text),
      ...(p.type === 'quiz' ? { quiz: true } : {}),
      ...(p.allows_multiple_answers ? { multipleAnswers: true } : {}),
      ...(p.is_closed ? { closed: true } : {}),
    });
  }
  if (s.dice) out.push({ kind: 'dice', emoji: s.dice.emoji, value: s.dice.value });
  if (s.game)
    out.push({
      kind: 'game',
      title: s.game.title,
      ...(s.game.description ? { description: s.game.description } : {}),
    });
  if (s.invoice) {
    const i = s.invoice;
    out.push({
      kind: 'invoice',
      title: i.title,
      ...(i.description ? { description: i.description } : {}),
      amount: i.total_amount,
      currency: i.currency,
    });
  }
  if (s.successful_payment) {
    const p = s.successful_payment;
    out.push({ kind: 'payment', amount: p.total_amount, currency: p.currency });
  }
  if (s.story) {
    const from = chatTitle(s.story.chat);
    out.push({ kind: 'story', ...(from ? { from } : {}) });
  }
  return out;
}

/** forward_origin of every kind: a user, a hidden user (name only), a chat, a channel. */
export function forwardOf(o: TgOrigin): { name?: string; signature?: string } {
  const signature = o.author_signature ? { signature: o.author_signature } : {};
  const named = (name: string | undefined) => (name ? { name } : {});
  switch (o.type) {
    case 'user':
      return named(o.sender_user && displayName(o.sender_user));
    case 'hidden_user':
      return named(o.sender_user_name);
    case 'chat':
      return { ...named(o.sender_chat && chatTitle(o.sender_chat)), ...signature };
    case 'channel':
      return { ...named(o.chat && chatTitle(o.chat)), ...signature };
    default:
      return signature;
  }
}
