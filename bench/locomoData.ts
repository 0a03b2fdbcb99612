// LoCoMo's development conversations (../shared/data/locomo-dev.json, see its README) as
// memories and questions: each conversation is one owner's memory, in two forms — the dataset's
// observations (one memory per observation, tagged with its evidence dia_ids) and the raw dialog
// turns (one memory per turn, "Speaker: text" plus the shared image's caption as the app renders
// an image, tagged with its dia_id). Every memory occurred at its session's date_time.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MONTHS } from '../src/memory/timeCues.js';

export const LOCOMO_FORMS = ['observations', 'turns'] as const;
export type LocomoForm = (typeof LOCOMO_FORMS)[number];

/** The paper's categories; 5 (adversarial: unanswerable) is not a retrieval question. */
export const LOCOMO_CATEGORIES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' } as const;
export type LocomoCategory = keyof typeof LOCOMO_CATEGORIES;

export interface LocomoMemory {
  text: string;
  /** The dia_ids this memory stands for. */
  evidence: string[];
  /** Who said it (turns) or whom it is about (observations). */
  speaker: string;
  occurredAt: Date;
}

export interface LocomoQuestion {
  question: string;
  category: LocomoCategory;
  /** Normalised dia_ids of the evidence; never empty. */
  evidence: string[];
}

export interface LocomoConversation {
  id: string;
  memories: Record<LocomoForm, LocomoMemory[]>;
  questions: LocomoQuestion[];
  /** A day after the last session: when the questions are asked. */
  askedAt: Date;
  /** Evidence ids that could not be read (malformed in the dataset), left out of the questions. */
  unreadableEvidence: string[];
}

const turnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().optional(),
});
const qaSchema = z.object({
  question: z.string(),
  category: z.number().int(),
  evidence: z.array(z.string()).default([]),
});
const observationSchema = z.tuple([z.string(), z.union([z.string(), z.array(z.string())])]);
const sampleSchema = z.object({
  sample_id: z.string(),
  conversation: z.record(z.string(), z.unknown()),
  observation: z.record(z.string(), z.record(z.string(), z.array(observationSchema))),
  qa: z.array(qaSchema),
});

const DAY_MS = 86_400_000;

/** "1:56 pm on 8 May, 2023" → that minute (UTC: the dataset names no zone). */
export function parseSessionTime(raw: string): Date {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(raw.trim());
  const month = m ? MONTHS.indexOf(m[5]!.toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`unreadable session date_time "${raw}"`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

/**
 * Evidence as the dataset writes it, mostly "D3:7"; a few are "D8:6; D9:17" (two in one) or
 * "D:11:26". Returns the readable ids and the unreadable pieces.
 */
export function normalizeEvidence(raw: readonly string[]): { ids: string[]; unreadable: string[] } {
  const ids: string[] = [];
  const unreadable: string[] = [];
  for (const piece of raw.flatMap((r) => r.split(/[;,]/)).map((p) => p.trim())) {
    const m = /^D:?(\d+):(\d+)$/.exec(piece);
    if (m) ids.push(`D${Number(m[1])}:${Number(m[2])}`);
    else if (piece !== '') unreadable.push(piece);
  }
  return { ids: [...new Set(ids)], unreadable };
}

/** The session numbers of a conversation, in order. */
function sessionNumbers(conversation: Record<string, unknown>): number[] {
  return Object.keys(conversation)
    .flatMap((k) => {
      const m = /^session_(\d+)$/.exec(k);
      return m ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b);
}

/** One turn as the app shows a message with an image: the text, then "[Image: caption]". */
const turnText = (t: z.infer<typeof turnSchema>): string =>
  `${t.speaker}: ${t.text}${t.blip_caption ? ` [Image: ${t.blip_caption}]` : ''}`;

function readTurns(conversation: Record<string, unknown>, times: Map<number, Date>): LocomoMemory[] {
  const out: LocomoMemory[] = [];
  for (const n of sessionNumbers(conversation)) {
    const turns = z.array(turnSchema).parse(conversation[`session_${n}`]);
    turns.forEach((t, i) =>
      out.push({
        text: turnText(t),
        evidence: normalizeEvidence([t.dia_id]).ids,
        speaker: t.speaker,
        // A minute apart, so a session's turns keep their order in time.
        occurredAt: new Date(times.get(n)!.getTime() + i * 60_000),
      }),
    );
  }
  return out;
}

function readObservations(
  observation: z.infer<typeof sampleSchema>['observation'],
  times: Map<number, Date>,
): LocomoMemory[] {
  const out: LocomoMemory[] = [];
  for (const [key, bySpeaker] of Object.entries(observation)) {
    const n = Number(/^session_(\d+)_observation$/.exec(key)?.[1]);
    const at = times.get(n);
    if (!at) throw new Error(`observation ${key} has no session date`);
    for (const [speaker, items] of Object.entries(bySpeaker))
      for (const [text, ev] of items)
        out.push({ text, evidence: normalizeEvidence(Array.isArray(ev) ? ev : [ev]).ids, speaker, occurredAt: at });
  }
  return out;
}

function readQuestions(qa: z.infer<typeof sampleSchema>['qa']): { questions: LocomoQuestion[]; unreadable: string[] } {
  const questions: LocomoQuestion[] = [];
  const unreadable: string[] = [];
  for (const q of qa) {
    if (!(q.category in LOCOMO_CATEGORIES)) continue;
    const ev = normalizeEvidence(q.evidence);
    unreadable.push(...ev.unreadable);
    if (ev.ids.length > 0)
      questions.push({ question: q.question, category: q.category as LocomoCategory, evidence: ev.ids });
  }
  return { questions, unreadable };
}

export function loadLocomo(path: string): LocomoConversation[] {
  const samples = z.array(sampleSchema).parse(JSON.parse(readFileSync(path, 'utf8')));
  return samples.map((s) => {
    const times = new Map(
      sessionNumbers(s.conversation).map((n) => [
        n,
        parseSessionTime(String(s.conversation[`session_${n}_date_time`])),
      ]),
    );
    const { questions, unreadable } = readQuestions(s.qa);
    const last = Math.max(...[...times.values()].map((d) => d.getTime()));
    return {
      id: s.sample_id,
      memories: { observations: readObservations(s.observation, times), turns: readTurns(s.conversation, times) },
      questions,
      askedAt: new Date(last + DAY_MS),
      unreadableEvidence: unreadable,
    };
  });
}
