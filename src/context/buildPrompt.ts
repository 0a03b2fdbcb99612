// The prompt for one turn, rebuilt every time from the store (SPEC §5). This first version has
// the persona and the recent raw messages; later parts slot in between in the SPEC's order.
import { createHash } from 'node:crypto';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Agent, Message } from '../domain/model.js';
import { renderMessage } from './renderMessage.js';

export interface PromptInput {
  agent: Pick<Agent, 'name' | 'basePersona' | 'evolvedPersona'>;
  /** Recent messages of the session, oldest first, including the turn's own input. */
  history: Message[];
  now: Date;
  /** Display timezone for the current time line (storage stays UTC). */
  timezone?: string;
  /** A closing system instruction for this generation only (e.g. a proactive check-in). */
  instruction?: string;
  /** A group chat: human messages carry their sender's name, and the model is told so. */
  groupChat?: boolean;
}

export interface BuiltPrompt {
  messages: ChatCompletionMessageParam[];
  /** Characters per part, for the trace. */
  parts: Record<string, number>;
  /** Hash of the full prompt, so two builds can be compared at a glance. */
  hash: string;
}

/** AI messages that never carried real text (errors, timeouts, empties) stay out of the prompt. */
const usableAiStates = new Set(['complete', 'interrupted', 'streaming']);

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const system = [
    input.agent.basePersona,
    input.agent.evolvedPersona ? `\n${input.agent.evolvedPersona}` : '',
    `\nCurrent time: ${formatLocal(input.now, input.timezone ?? 'UTC')} (${input.timezone ?? 'UTC'})`,
    input.groupChat ? `\nYou are ${input.agent.name} in a group chat with several people; each of their messages starts with the sender's name. Answer the person who addressed you.` : '',
  ].join('');

  const history: ChatCompletionMessageParam[] = [];
  let historyChars = 0;
  const render = { groupChat: input.groupChat === true, agentName: input.agent.name };
  for (const m of input.history) {
    const include = m.senderRole === 'human' || (m.senderRole === 'ai' && m.content.length > 0 && usableAiStates.has(m.delivery?.state ?? 'complete'));
    if (!include) continue;
    const content = renderMessage(m, render);
    history.push({ role: m.senderRole === 'human' ? 'user' : 'assistant', content });
    historyChars += content.length;
  }
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: system },
    ...history,
    ...(input.instruction ? [{ role: 'system' as const, content: input.instruction }] : []),
  ];
  const hash = createHash('sha256').update(JSON.stringify(messages)).digest('hex').slice(0, 16);
  return {
    messages,
    parts: { system: system.length, recentMessages: historyChars, instruction: input.instruction?.length ?? 0 },
    hash,
  };
}

function formatLocal(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(now);
}
