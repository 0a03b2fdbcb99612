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

/** The agents marked in the message, in the order of `agents`. */
export function mentionedAgents(marks: MentionMarks, agents: readonly MentionTarget[]): string[] {
  return agents.filter((a) => marksAgent(marks, a)).map((a) => a._id);
}

function marksAgent(marks: MentionMarks, agent: MentionTarget): boolean {
  if (marks.repliesToAgentId === agent._id) return true;
  const accounts = (agent.bindings ?? []).filter((b) => b.platform === marks.platform);
  const byEntity = marks.mentions.some((m) =>
    accounts.some((b) => (m.userId && m.userId === b.userId) || sameName(m.username, b.username)),
  );
  if (byEntity) return true;
  const names = [agent.name, ...(agent.aliases ?? []), ...accounts.flatMap((b) => (b.username ? [b.username] : []))];
  return names.some((n) => atMentions(marks.text, n));
}

const sameName = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** `@name` in the text, not followed by more of a Latin word ("@Ann" does not mark "Anna"). */
function atMentions(text: string | undefined, name: string): boolean {
  if (!text || !name) return false;
  const hay = text.toLowerCase();
  const needle = `@${name.toLowerCase()}`;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const after = hay.charAt(i + needle.length);
    if (!/[a-z0-9_]/.test(after)) return true;
  }
  return false;
}
