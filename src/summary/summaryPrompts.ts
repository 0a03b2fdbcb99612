// What the model is told and must answer for the two summary tasks: folding older messages into
// the session's rolling summary (`rolling_summary`, seed 003) and summarising a whole session
// into a summary, plot points and details (`summarize_session`, seed 001 汇总). Inputs are plain
// text in a fixed layout: `### <section>` headers, the conversation as transcript lines
// (`[<ISO>] user (<name>): <text>`, `[<ISO>] assistant (<agent's name>): <text>`,
// `[<ISO>] operator: <text>`; the layout of src/memory/extractionPrompt.ts). Every AI line names
// its agent: in a room several speak, and a summary that merged them would tell each agent the
// others' words as its own. The fake task brain in test/doubles parses the same layout. Pure.
import { isOperatorPost, isShownToAgents } from '../domain/conversation.js';
import { z } from 'zod';
import type { Message } from '../domain/model.js';
import { aiSpeakerName, renderMessage, type RenderOptions } from '../transcript/renderMessage.js';
import { renderTranscriptLine, type TranscriptLine } from '../memory/extractionPrompt.js';

export const NONE = '(none)';

/** `### <title>` then the body (or `(none)`): one section of a task input. */
export function section(title: string, body: string | undefined): string {
  const text = body?.trim();
  return `### ${title}\n${text ? text : NONE}`;
}

/**
 * Usable messages as transcript lines, oldest first (media rendered as text): each speaker named
 * in the line — a person by their name, an AI by its agent's (`o.agentNames` by id), an
 * operator's post as `operator` — and the text without a name prefix.
 */
export function transcriptOf(messages: readonly Message[], o: RenderOptions): TranscriptLine[] {
  return messages.filter(isShownToAgents).map((m): TranscriptLine => {
    if (isOperatorPost(m)) return { at: m.createdAt, role: 'operator', text: m.content };
    if (m.senderRole === 'ai')
      return { at: m.createdAt, role: 'assistant', name: aiSpeakerName(m, o), text: m.content };
    const name = m.contentMeta?.senderName;
    return {
      at: m.createdAt,
      role: 'user',
      ...(name ? { name } : {}),
      text: renderMessage(m, { ...o, groupChat: false }),
    };
  });
}

/**
 * The newest lines that fit in `maxChars` (a whole session can be longer than a model's
 * context); the dropped prefix is announced so the model knows the transcript starts late.
 */
export function fitTranscript(lines: readonly TranscriptLine[], maxChars: number): { text: string; omitted: number } {
  const rendered = lines.map(renderTranscriptLine);
  let used = 0;
  let start = rendered.length;
  while (start > 0 && used + rendered[start - 1]!.length + 1 <= maxChars) {
    used += rendered[start - 1]!.length + 1;
    start--;
  }
  const kept = rendered.slice(start);
  const text =
    start > 0
      ? [`(${start} earlier messages omitted; the earlier summary covers them)`, ...kept].join('\n')
      : kept.join('\n');
  return { text, omitted: start };
}

// ---------------------------------------------------------------- rolling_summary

export const ROLLING_SUMMARY_INSTRUCTIONS = `You keep a running summary of a long conversation between people and one or more AI companions, so the companions can remember what happened earlier without rereading it.
You get the current summary (or "(none)") and the next messages to fold into it, oldest first, each with its UTC time and its speaker: "user (<name>)" is a person, "assistant (<name>)" is the AI companion of that name, "operator" is a post by the chat's operator.
Write the new summary: the current summary updated with the new messages, as one text.

Rules:
- Write in the language the conversation is in (if the user writes Chinese, write Chinese).
- At most about 300 words (about 500 Chinese characters). Compress older details before dropping recent ones.
- Keep names of people, pets and places, facts the user stated, decisions and agreements, promises the companions made, and open threads (questions not yet answered, plans not yet done).
- Keep who said what: name each speaker as the transcript names them (a person by their name, or "the user"; each AI companion by its own name). Several companions may share the chat: never merge them into one "assistant", and never give one companion's words to another. Say when something came from the operator.
- Note when things happened if it matters (dates, "later that day").
- No commentary about the summary itself.

Answer with one JSON object and nothing else:
{"summary":"..."}`;

export function renderRollingSummaryInput(o: { previous?: string; lines: readonly TranscriptLine[] }): string {
  return [
    section('Current summary', o.previous),
    section('Messages to fold', o.lines.map(renderTranscriptLine).join('\n')),
  ].join('\n\n');
}

export const rollingSummaryOutputSchema = z.object({ summary: z.string().trim().min(1) });

// ---------------------------------------------------------------- summarize_session

export const SUMMARIZE_SESSION_INSTRUCTIONS = `You close a conversation session between people and one or more AI companions. The companions will continue in a new session that starts from your summary, and your notes go into their long-term memory.
You get an earlier summary of the session's first part (or "(none)") and the conversation, oldest first, each message with its UTC time and its speaker: "user (<name>)" is a person, "assistant (<name>)" is the AI companion of that name (several may share the chat), "operator" is a post by the chat's operator.

Write:
- "summary": the whole session in one text: what was talked about, what happened, what was decided, and what is still open — so the conversation can continue naturally from it. At most about 250 words (about 400 Chinese characters).
- "plotPoints": the key moments of the session in order, one short self-contained sentence each (at most 12). Each must make sense on its own later: name who and what, no "he/she/it" without its referent.
- "details": concrete details worth recalling later when asked "how" or "what exactly" (what was said, numbers, names, descriptions, steps), one self-contained sentence each (at most 20).

Rules:
- Write in the language the conversation is in (if the user writes Chinese, write Chinese).
- Keep who said what: name each speaker as the transcript names them (a person by their name, or "the user"; each AI companion by its own name); never merge several companions into one "assistant". Say when something came from the operator.
- Only what is in the conversation or the earlier summary; invent nothing.

Answer with one JSON object and nothing else:
{"summary":"...","plotPoints":["..."],"details":["..."]}`;

export function renderSummarizeSessionInput(o: {
  startedAt: Date;
  endedAt: Date;
  earlierSummary?: string;
  transcript: string;
}): string {
  return [
    `Session: ${o.startedAt.toISOString()} to ${o.endedAt.toISOString()} (UTC)`,
    section('Earlier summary', o.earlierSummary),
    section('Conversation', o.transcript),
  ].join('\n\n');
}

const sentenceList = (max: number) =>
  z
    .array(z.unknown())
    .catch([])
    // One bad entry (not a string, empty) is dropped, not the whole answer.
    .transform((xs) =>
      xs
        .filter((x): x is string => typeof x === 'string' && x.trim().length > 0)
        .map((x) => x.trim())
        .slice(0, max),
    );

export const summarizeSessionOutputSchema = z.object({
  summary: z.string().trim().min(1),
  plotPoints: sentenceList(12).default([]),
  details: sentenceList(20).default([]),
});
export type SessionSummaryOutput = z.infer<typeof summarizeSessionOutputSchema>;
