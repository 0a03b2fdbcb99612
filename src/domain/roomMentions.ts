// Which of a room's agents a message @mentions (seed 002's @ mechanism). Only explicit marks
// count: a platform mention of the agent's own account, `@Name` (or an alias) in the text, or a
// reply to one of the agent's messages. An agent merely named in passing is not called on. Pure.
import type { Agent, Platform } from './model.js';

export interface MentionMarks {
  platform: Platform;
  text?: string;
  /** Platform mention entities: user ids and @usernames. */
  mentions: ReadonlyArray<{ userId?: string; username?: string }>;
  /** The agent whose message this one replies to, if any. */
  repliesToAgentId?: string;
}

type MentionTarget = Pick<Agent, '_id' | 'name' | 'aliases' | 'bindings'>;

/**
 * The agents marked in the message, in the order people wrote them ("@B @A" asks B first): the
 * agent replied to first, then by where its @ stands in the text; a mark without a place in the
 * text (a mention by user id) after those, in the order of `agents`.
 */
export function mentionedAgents(marks: MentionMarks, agents: readonly MentionTarget[]): string[] {
  return agents
    .map((a, i) => ({ id: a._id, at: markedAt(marks, a), i }))
    .filter((m): m is { id: string; at: number; i: number } => m.at !== undefined)
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((m) => m.id);
}

/** Where the message marks the agent (-1: by replying to it; Infinity: by a mark without a place in the text), if it does. */
function markedAt(marks: MentionMarks, agent: MentionTarget): number | undefined {
  if (marks.repliesToAgentId === agent._id) return -1;
  const accounts = (agent.bindings ?? []).filter((b) => b.platform === marks.platform);
  const names = [agent.name, ...(agent.aliases ?? []), ...accounts.flatMap((b) => (b.username ? [b.username] : []))];
  const places = names.map((n) => atMention(marks.text, n)).filter((p) => p >= 0);
  if (places.length > 0) return Math.min(...places);
  const byEntity = marks.mentions.some((m) =>
    accounts.some((b) => (m.userId && m.userId === b.userId) || sameName(m.username, b.username)),
  );
  return byEntity ? Infinity : undefined;
}

const sameName = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** Where `@name` first stands in the text, not followed by more of a Latin word ("@Ann" does not mark "Anna"); -1: nowhere. */
function atMention(text: string | undefined, name: string): number {
  if (!text || !name) return -1;
  const hay = text.toLowerCase();
  const needle = `@${name.toLowerCase()}`;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const after = hay.charAt(i + needle.length);
    if (!/[a-z0-9_]/.test(after)) return i;
  }
  return -1;
}
