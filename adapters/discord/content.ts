// Discord's markup and cards → what the core reads: mention codes as the names people see,
// a bot's or webhook's embed card and a poll as shared items, a forward's origin. Field
// translation only: the core words shared items (src/domain/sharedContent.ts).
import type { InboundSharedItem } from '../../src/ingest/inboundEvent.js';

export interface Names {
  mentionedUsers?: Array<{ id: string; displayName: string }>;
  mentionedRoles?: Array<{ id: string; name: string | null }>;
  mentionedChannels?: Array<{ id: string; name: string | null }>;
}

/** Mention codes as a person sees them; unknown ones in a neutral form, never a raw id. */
export function readableContent(content: string, n: Names): string {
  const users = new Map((n.mentionedUsers ?? []).map((u) => [u.id, u.displayName]));
  const roles = new Map((n.mentionedRoles ?? []).map((r) => [r.id, r.name]));
  const channels = new Map((n.mentionedChannels ?? []).map((c) => [c.id, c.name]));
  return content
    .replace(/<@!?(\d{15,21})>/g, (_, id: string) => `@${users.get(id) ?? 'unknown-user'}`)
    .replace(/<@&(\d{15,21})>/g, (_, id: string) => `@${roles.get(id) ?? 'unknown-role'}`)
    .replace(/<#(\d{15,21})>/g, (_, id: string) => `#${channels.get(id) ?? 'unknown-channel'}`)
    .replace(/<a?:(\w{2,32}):\d{15,21}>/g, (_, name: string) => `:${name}:`);
}

export interface Card {
  type: string | null;
  title: string | null;
  description: string | null;
  url: string | null;
  author: string | null;
  footer: string | null;
  fields: Array<{ name: string; value: string }>;
}

const opt = (key: string, v: string | null) => (v ? { [key]: v } : {});

/**
 * A bot's or webhook's card ("rich") is what it said; a link preview is only shown when the
 * message has nothing else, so a pasted link does not read twice.
 */
export function cardsOf(cards: readonly Card[], hasOther: boolean): InboundSharedItem[] {
  return cards
    .filter((c) => c.type === 'rich' || c.type === null || !hasOther)
    .map((c) => ({
      kind: 'embed' as const,
      ...opt('title', c.title),
      ...opt('description', c.description),
      ...opt('author', c.author),
      ...opt('footer', c.footer),
      ...opt('url', c.url),
      fields: c.fields,
    }));
}

export interface PollSnap {
  question: string | null;
  answers: string[];
  allowMultiselect: boolean;
  resultsFinalized: boolean;
}

export function pollOf(p: PollSnap): InboundSharedItem {
  return {
    kind: 'poll',
    question: p.question ?? '',
    options: p.answers,
    ...(p.allowMultiselect ? { multipleAnswers: true } : {}),
    ...(p.resultsFinalized ? { closed: true } : {}),
  };
}

/** Where a forward came from: the source channel when the client knows it. */
export function forwardOf(channelName: string | null | undefined): { name?: string } {
  return channelName ? { name: `#${channelName}` } : {};
}
