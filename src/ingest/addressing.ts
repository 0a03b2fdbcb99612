// Who an inbound message is addressed to, read from the platform's own marks (mentions,
// replies, names) against our bot account and agent. Feeds the pure activation rule.
import type { Agent, Dialogue, Platform, Quote } from '../domain/model.js';
import type { AddressCheck } from '../domain/activation.js';
import { callsByName } from '../domain/activation.js';
import { humanIdOf } from '../store/participants.js';
import type { InboundMention, InboundMessage } from './inboundEvent.js';

type Recipient = NonNullable<InboundMessage['recipient']>;

const sameName = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

export function mentionsRecipient(m: InboundMention, r: Recipient | undefined): boolean {
  if (!r) return false;
  return (
    (!!m.userId && m.userId === r.userId) ||
    sameName(m.username, r.username) ||
    (!!m.roleId && (r.roleIds ?? []).includes(m.roleId))
  );
}

export function addressCheck(
  ev: InboundMessage,
  o: { agent: Pick<Agent, 'name' | 'aliases'>; dialogue: Pick<Dialogue, 'settings'>; quote?: Quote },
): AddressCheck {
  const r = ev.recipient;
  return {
    chatKind: ev.chat.kind,
    mentioned: ev.mentions.some((m) => mentionsRecipient(m, r)),
    repliedTo: (!!r && ev.replyTo?.sender?.userId === r.userId) || o.quote?.senderRole === 'ai',
    named: callsByName(ev.text, [o.agent.name, ...(o.agent.aliases ?? [])]),
    answerAll: o.dialogue.settings?.answerAll === true,
    fromOtherBot: ev.sender.isBot,
  };
}

/** Mentions as participant ids: our bot → the agent, a platform user → their Human id, else "@name". */
export function mentionIds(
  platform: Platform,
  mentions: InboundMention[],
  recipient: Recipient | undefined,
  agentId: string,
): string[] {
  const ids = mentions.map((m) => {
    if (mentionsRecipient(m, recipient)) return agentId;
    if (m.userId) return humanIdOf({ platform, userId: m.userId });
    if (m.username) return `@${m.username}`;
    return m.roleId ? `role:${m.roleId}` : undefined;
  });
  return [...new Set(ids.filter((x): x is string => x !== undefined))];
}

/** Our own post coming back (Discord echoes a bot's and its webhooks' messages): never stored twice. */
export function isOwnEcho(ev: InboundMessage): boolean {
  const r = ev.recipient;
  if (!r || !ev.sender.isBot) return false;
  return ev.sender.userId === r.userId || (!!ev.sender.webhookId && ev.sender.applicationId === r.userId);
}
