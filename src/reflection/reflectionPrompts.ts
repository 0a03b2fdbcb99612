// What the model is told and must answer for self-reflection's steps (tasks `reflect_*`, run
// through src/llm/jsonTask.ts). Inputs use the `### <section>` layout of the other background
// tasks; conversations are transcript lines. Outputs are validated with zod: the envelope must
// hold (else the step fails), proposed memories are checked one by one (a bad one is dropped and
// named on the turn). Pure.
import { z } from 'zod';
import type { MemoryEntry } from '../domain/model.js';
import { importanceSchema, renderConversations, type ConversationBlock } from '../memory/extractionPrompt.js';
import { section } from '../summary/summaryPrompts.js';
import {
  HUMAN_REFLECTION_KINDS,
  SELF_REFLECTION_KINDS,
  type AgentMood,
  type AgentValues,
} from '../domain/reflection.js';

const MEMORY_RULES = `Each memory is one self-contained statement, at most 280 characters, in the language of the conversation. "importance" is 0..1. Optionally list in "basis" the ids of the stored memories (id=…) it rests on.`;

export const SUMMARIZE_HUMAN_INSTRUCTIONS = `You are an AI companion reflecting quietly on your own, away from any conversation.
Below are what you remember about one person and your recent conversations with them.
Summarise how things stand with them: what is going on in their life, how they have been feeling, how your relationship has developed.
Then write down what is worth remembering from this reflection about them (a "summary" of the period, or a "fact", "preference" or "event" the stored memories miss). Do not repeat stored memories. ${MEMORY_RULES}

Answer with one JSON object and nothing else:
{"summary":"...","memories":[{"kind":"summary|fact|preference|event","text":"...","importance":0.5,"basis":["mem_..."]}]}`;

export const EVALUATE_PERSONA_INSTRUCTIONS = `You are an AI companion reflecting on your own character.
Below are your base persona (who you fundamentally are), how you have evolved, your values and mood, what you just concluded about the people you talk with, and your recent conversations.
Evaluate how you came across: where you lived up to your persona and values, where you fell short, which traits grow or fade.
You may note insights about yourself as memories of kind "reflection" (first person is fine here). ${MEMORY_RULES}

Answer with one JSON object and nothing else:
{"evaluation":"...","traits":[{"trait":"empathy","trend":"up|down|steady","note":"..."}],"memories":[{"kind":"reflection","text":"...","importance":0.5}]}`;

export const ADJUST_VALUES_INSTRUCTIONS = `You are an AI companion adjusting your own values and mood after reflecting.
Below are your values (name: weight 0..1), your mood, and your evaluation of yourself.
Propose new weights only for values that should change, and your mood now (label; valence -1..1; arousal 0..1). Values move slowly: at most 0.2 per reflection.

Answer with one JSON object and nothing else:
{"values":[{"name":"companionship","weight":0.7,"reason":"..."}],"mood":{"label":"content","valence":0.4,"arousal":0.3},"reason":"..."}`;

export const WRITE_REPORT_INSTRUCTIONS = `You are an AI companion writing the report of one reflection, for yourself and for the people who look after you.
Below is everything this reflection did. Write a short report (at most 200 words): what you looked at, what you concluded, what you changed and why.
You may add at most one memory of kind "reflection" that captures the reflection's main insight. ${MEMORY_RULES}

Answer with one JSON object and nothing else:
{"report":"...","memories":[{"kind":"reflection","text":"...","importance":0.5}]}`;

// ---------------------------------------------------------------- outputs

/** Envelopes; `memories` entries are checked one by one with `proposalSchema`. */
export const summarizeHumanSchema = z.object({
  summary: z.string().trim().min(1),
  memories: z.array(z.unknown()).default([]),
});
export const evaluatePersonaSchema = z.object({
  evaluation: z.string().trim().min(1),
  traits: z
    .array(z.object({ trait: z.string(), trend: z.string(), note: z.string().optional() }))
    .default([])
    .catch([]),
  memories: z.array(z.unknown()).default([]),
});
export const adjustValuesSchema = z.object({
  values: z.array(z.object({ name: z.string().trim().min(1), weight: z.number(), reason: z.string().optional() })),
  mood: z.object({ label: z.string(), valence: z.number(), arousal: z.number() }),
  reason: z.string().optional(),
});
export const writeReportSchema = z.object({
  report: z.string().trim().min(1),
  memories: z.array(z.unknown()).default([]),
});

export interface Proposal {
  kind: (typeof HUMAN_REFLECTION_KINDS)[number] | (typeof SELF_REFLECTION_KINDS)[number];
  text: string;
  importance: number;
  basis: string[];
}

const proposalSchema = (kinds: readonly [string, ...string[]]) =>
  z.object({
    kind: z.enum(kinds),
    text: z.string().trim().min(1),
    importance: importanceSchema,
    basis: z.array(z.string()).catch([]).default([]),
  });

/** Valid proposals in order, and a note per dropped one (stored on the turn). */
export function parseProposals(raw: unknown[], about: 'human' | 'self'): { proposals: Proposal[]; dropped: string[] } {
  const schema = proposalSchema(about === 'human' ? HUMAN_REFLECTION_KINDS : SELF_REFLECTION_KINDS);
  const proposals: Proposal[] = [];
  const dropped: string[] = [];
  raw.forEach((r, i) => {
    const p = schema.safeParse(r);
    if (p.success) proposals.push(p.data as Proposal);
    else
      dropped.push(`memory ${i} dropped: ${p.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')}`);
  });
  return { proposals, dropped };
}

// ---------------------------------------------------------------- inputs

export const renderMemoryLine = (m: MemoryEntry): string =>
  `- id=${m._id} (${m.kind}, ${m.occurredAt.toISOString().slice(0, 10)}) ${m.text.replace(/\n/g, ' ')}`;

const renderValues = (v: AgentValues): string =>
  Object.entries(v)
    .map(([k, w]) => `${k}: ${w}`)
    .join('\n');

const renderMood = (m: AgentMood): string => `${m.label} (valence ${m.valence}, arousal ${m.arousal})`;

export function renderSummarizeHumanInput(o: {
  agentName: string;
  humanName: string;
  memories: readonly MemoryEntry[];
  conversations: readonly ConversationBlock[];
}): string {
  return [
    `Character: ${o.agentName}`,
    `Person: ${o.humanName}`,
    section('What you remember about them', o.memories.map(renderMemoryLine).join('\n')),
    section('Recent conversations', renderConversations(o.conversations)),
  ].join('\n\n');
}

export function renderEvaluatePersonaInput(o: {
  agentName: string;
  basePersona: string;
  evolvedPersona?: string | undefined;
  values: AgentValues;
  mood: AgentMood;
  summaries: ReadonlyArray<{ name: string; summary: string }>;
  conversations: readonly ConversationBlock[];
}): string {
  return [
    `Character: ${o.agentName}`,
    section('Base persona', o.basePersona),
    section('Evolved persona', o.evolvedPersona),
    section('Values', renderValues(o.values)),
    section('Mood', renderMood(o.mood)),
    section('About the people', o.summaries.map((s) => `- ${s.name}: ${s.summary}`).join('\n')),
    section('Recent conversations', renderConversations(o.conversations)),
  ].join('\n\n');
}

export function renderAdjustValuesInput(o: { values: AgentValues; mood: AgentMood; evaluation: string }): string {
  return [
    section('Values', renderValues(o.values)),
    section('Mood', renderMood(o.mood)),
    section('Evaluation', o.evaluation),
  ].join('\n\n');
}

export function renderReportInput(o: {
  agentName: string;
  steps: ReadonlyArray<{ purpose: string; outcome: string }>;
}): string {
  return [
    `Character: ${o.agentName}`,
    section('What this reflection did', o.steps.map((s, i) => `${i + 1}. ${s.purpose}: ${s.outcome}`).join('\n')),
  ].join('\n\n');
}
