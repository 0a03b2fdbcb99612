// The prompts a turn sent, as the life checks read them: every string of a request body (what
// the model received) or of a context_built event's prompt (what the gateway recorded), and
// the fake model's reply to them.
import type { RecordedRequest } from '../doubles/fakeOpenAI.js';

export interface SeenPrompt {
  source: 'wire' | 'trace';
  /** Every string of the request body (wire) or of the recorded prompt (trace), one per line. */
  text: string;
  /** trace only: the prompt's token total as the gateway counted it. */
  totalTokens?: number;
}

/** All strings inside a JSON value, in order: the readable text of a prompt of any shape. */
export function stringsIn(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (v && typeof v === 'object') return Object.values(v).flatMap(stringsIn);
  return [];
}

/** A context_built event's data as a seen prompt: its messages' strings and its token total. */
export function contextPrompt(data: Record<string, unknown>): SeenPrompt {
  return {
    source: 'trace',
    text: stringsIn(data.prompt).join('\n'),
    ...(typeof data.totalTokens === 'number' ? { totalTokens: data.totalTokens } : {}),
  };
}

/**
 * The model's reply: the last user message echoed without whitespace, so the fake streams it
 * as one chunk — one send, no edits, half the sending budget a group chat allows (18 a minute).
 */
export function oneChunkEcho(said: string[]): string {
  return `回复：${said.join('').replace(/\s+/g, '')}`;
}

export function wirePrompt(r: RecordedRequest): SeenPrompt {
  const { model: _model, ...body } = r.body;
  return { source: 'wire', text: stringsIn(body).join('\n') };
}

/** A turn that was answered must show its prompt both on the wire and in the trace, holding what was said. */
export function checkCaptured(label: string, text: string, prompts: SeenPrompt[]): void {
  const said = text.replace(/^@\S+\s*/, '');
  for (const source of ['wire', 'trace'] as const) {
    const mine = prompts.filter((p) => p.source === source);
    if (mine.length === 0) throw new Error(`${label}: rig problem — no ${source} prompt was captured`);
    if (!mine.some((p) => p.text.includes(said)))
      throw new Error(`${label}: rig problem — no ${source} prompt holds the message said ("${said}")`);
  }
}
