// What the model is told for persona evolution (seed 001 更新记忆, SPEC §9, task
// `evolve_persona`): base persona (never changed) + the current evolved persona + the agent's
// recent turns → a new evolved persona. Input sections use `### <title>` headers; the
// conversation is transcript lines grouped per dialogue. The fake task brain parses this layout.
import { z } from 'zod';
import { renderTranscriptLine, type TranscriptLine } from '../memory/extractionPrompt.js';
import { section } from '../summary/prompts.js';

export const EVOLVE_PERSONA_INSTRUCTIONS = `You keep the character of an AI companion alive over time.
You get its base persona (fixed: who it fundamentally is), its current evolved persona (how it has grown so far, or "(none)"), and its most recent conversations, oldest first.

Write the new evolved persona: how the character has grown and changed through its conversations — relationships it has built, what it has learned about the people it talks with, shared experiences and running jokes, moods and opinions it has formed, how its way of speaking has adapted.

Rules:
- Keep the base character: the evolved persona adds to the base persona and never contradicts its core traits, values or name.
- Carry over what still holds from the current evolved persona; let recent conversations update it.
- Write it as a description of the character in the second person ("You have grown fond of …"), consistently; no lists of chat logs, no quotes longer than a few words.
- Write in the language the base persona is written in.
- At most 250 words (about 400 Chinese characters).

Answer with one JSON object and nothing else:
{"evolvedPersona":"..."}`;

export interface EvolveConversation {
  /** The dialogue's title or chat name, to tell conversations apart. */
  label: string;
  lines: TranscriptLine[];
}

export function renderEvolveInput(o: {
  name: string;
  basePersona: string;
  evolvedPersona?: string;
  conversations: readonly EvolveConversation[];
}): string {
  const talks = o.conversations
    .map((c) => [`-- ${c.label}`, ...c.lines.map(renderTranscriptLine)].join('\n'))
    .join('\n\n');
  return [
    `Character: ${o.name}`,
    section('Base persona', o.basePersona),
    section('Current evolved persona', o.evolvedPersona),
    section('Recent conversations', talks),
  ].join('\n\n');
}

export const evolvePersonaOutputSchema = z.object({ evolvedPersona: z.string().trim().min(1) });
