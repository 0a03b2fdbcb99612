// What the model is told and what it must answer for the two post-turn tasks: extracting
// memories from one turn (`extract_memories`) and deciding how new memories relate to similar
// stored ones (`reconcile_memories`). The inputs are plain text in a fixed layout (the fake task
// brain in test/doubles parses the same layout); outputs are validated entry by entry, so one
// bad entry is dropped without losing the batch.
import { z } from 'zod';
import type { MemoryKind } from '../domain/model.js';

export const EXTRACTABLE_KINDS = ['fact', 'event', 'preference'] as const satisfies readonly MemoryKind[];
export type ExtractableKind = (typeof EXTRACTABLE_KINDS)[number];

export const EXTRACT_MEMORIES_INSTRUCTIONS = `You maintain the long-term memory an AI companion keeps about the user it talks with.
Read the conversation below (one turn: the user's messages and the assistant's reply) and write down what is worth remembering about the user for future conversations.

Rules:
- Only durable information about the user: facts about their life (home, work, family, pets, health, plans), things that happened to them (events), and their preferences (likes, dislikes, habits, wishes).
- Skip small talk, greetings, questions without information, what the assistant said about itself, and anything only relevant to this moment.
- Each memory is one self-contained statement in the third person about the user ("User lives in Berlin", "用户养了一只叫团子的猫"). Never use "I", "you", or pronouns whose referent is not in the same memory. Name people, places and things explicitly.
- Write each memory in the language the user writes in.
- One fact per memory; at most 280 characters each. Do not repeat the same fact twice.
- occurredAt: when it happened or was said, as an ISO 8601 UTC timestamp. Take it from the timestamp of the message that states it. Resolve relative dates ("yesterday", "last Friday", "昨天", "上周") against that message's timestamp; when only a day is known, use noon UTC of that day.
- kind: "event" for something that happened at a particular time, "preference" for likes/dislikes/habits, otherwise "fact".
- importance: 0..1. 0.9 for identity and key life facts (name, home, job, family, health), 0.6 for stable preferences and notable events, 0.3 or less for trivia.
- If nothing is worth remembering, return an empty list.

Answer with one JSON object and nothing else:
{"memories":[{"kind":"fact|event|preference","text":"...","importance":0.0,"occurredAt":"2026-01-31T12:00:00.000Z"}]}`;

export interface TranscriptLine {
  at: Date;
  /** `operator`: a post by the chat's operator (summaries show it; extraction never gets one). */
  role: 'user' | 'assistant' | 'operator';
  name?: string;
  text: string;
}

/** `[<ISO time>] <role> (<name>): <text>`; continuation lines of a long message are indented. */
export function renderTranscriptLine(l: TranscriptLine): string {
  const who = l.name ? `${l.role} (${l.name.replace(/[()\n]/g, ' ').trim()})` : l.role;
  return `[${l.at.toISOString()}] ${who}: ${l.text.trim().replace(/\n/g, '\n    ')}`;
}

/** One dialogue's transcript lines under its label, as the reflection and persona prompts show conversations. */
export interface ConversationBlock {
  /** The dialogue's title or chat name, to tell conversations apart. */
  label: string;
  lines: TranscriptLine[];
}

/** Transcript lines grouped per dialogue under `-- <label>`, in the order given (oldest dialogue first). */
export const renderConversations = (blocks: readonly ConversationBlock[]): string =>
  blocks.map((b) => [`-- ${b.label}`, ...b.lines.map(renderTranscriptLine)].join('\n')).join('\n\n');

export function renderExtractionInput(o: { now: Date; userName?: string; lines: TranscriptLine[] }): string {
  return [
    `Date: ${o.now.toISOString().slice(0, 10)} (UTC)`,
    ...(o.userName ? [`User: ${o.userName}`] : []),
    'Conversation:',
    ...o.lines.map(renderTranscriptLine),
  ].join('\n');
}

/** The envelope only; each entry is checked on its own with `memoryCandidateSchema`. */
export const extractionOutputSchema = z.object({ memories: z.array(z.unknown()) });

/** A proposed memory's importance: clamped to 0..1, and 0.5 when it is missing or not a number. */
export const importanceSchema = z
  .number()
  .transform((v) => Math.min(1, Math.max(0, v)))
  .catch(0.5);

export const memoryCandidateSchema = z.object({
  kind: z.enum(EXTRACTABLE_KINDS),
  text: z.string().trim().min(1),
  importance: importanceSchema,
  occurredAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
});
export type MemoryCandidateOutput = z.infer<typeof memoryCandidateSchema>;

export interface ExtractedCandidate {
  kind: ExtractableKind;
  text: string;
  importance: number;
  occurredAt?: Date;
}

/** Valid entries in order; invalid ones are returned separately (with the reason) to be logged. */
export function parseExtraction(memories: unknown[]): {
  candidates: ExtractedCandidate[];
  dropped: Array<{ index: number; problem: string }>;
} {
  const candidates: ExtractedCandidate[] = [];
  const dropped: Array<{ index: number; problem: string }> = [];
  memories.forEach((raw, index) => {
    const r = memoryCandidateSchema.safeParse(raw);
    if (!r.success) {
      dropped.push({
        index,
        problem: r.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; '),
      });
      return;
    }
    candidates.push({
      kind: r.data.kind,
      text: r.data.text,
      importance: r.data.importance,
      ...(r.data.occurredAt ? { occurredAt: new Date(r.data.occurredAt) } : {}),
    });
  });
  return { candidates, dropped };
}

export const RECONCILE_MEMORIES_INSTRUCTIONS = `You maintain the long-term memory an AI companion keeps about the user.
New memories were just extracted from a conversation. Each new memory (a candidate, numbered #0, #1, …) is listed with the stored memories most similar to it (each with its id).
For every candidate choose exactly one operation:
- "add": it is new information (or only loosely related to the stored ones). Store it.
- "update": it refines the same fact as one stored memory (more detail, a correction of wording, the same fact still true). Give "targetId" (that memory's id) and "text": the rewritten memory combining both, one self-contained third-person statement.
- "invalidate": it contradicts a stored memory that is no longer true (the user moved, changed job, a preference changed). Give "targetId" (the outdated memory's id); the candidate is stored and the outdated memory is kept as history. Use one operation per outdated memory if it contradicts several.
- "noop": the same information is already stored. Give "targetId" when you can.
Only use ids listed under that candidate. Keep the language of the memories.

Answer with one JSON object and nothing else:
{"operations":[{"candidate":0,"op":"add|update|invalidate|noop","targetId":"...","text":"..."}]}`;

export interface ReconcileItem {
  candidate: { kind: string; text: string };
  similar: Array<{ id: string; kind: string; text: string; occurredAt: Date; score: number }>;
}

/**
 * `#<i> [<kind>] <text>` then one `  - id=<id> (<kind>, <yyyy-mm-dd>) <text>` line per similar
 * stored memory.
 */
export function renderReconcileInput(items: ReconcileItem[]): string {
  const out: string[] = ['Candidates:'];
  items.forEach((it, i) => {
    out.push(`#${i} [${it.candidate.kind}] ${oneLine(it.candidate.text)}`);
    out.push('  similar stored memories:');
    for (const s of it.similar)
      out.push(`  - id=${s.id} (${s.kind}, ${s.occurredAt.toISOString().slice(0, 10)}) ${oneLine(s.text)}`);
  });
  return out.join('\n');
}

const oneLine = (t: string): string => t.replace(/\s*\n\s*/g, ' ').trim();

export const reconcileOutputSchema = z.object({ operations: z.array(z.unknown()) });

export const reconcileOpSchema = z.object({
  candidate: z.number().int(),
  op: z.enum(['add', 'update', 'invalidate', 'noop']),
  targetId: z.string().min(1).optional().catch(undefined),
  text: z.string().trim().min(1).optional().catch(undefined),
});
export type ReconcileOp = z.infer<typeof reconcileOpSchema>;
