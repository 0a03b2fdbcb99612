// What the model is told for persona evolution (seed 001 更新记忆, SPEC §9 and §13), in two
// tasks: `evolve_persona` — base persona (never changed) + the current agent-wide evolved persona +
// the agent's recent turns → a new agent-wide part, shown to everyone, so it holds no facts about
// people; and `relationship_note` — one person's private chats → the agent's note on that
// person, shown only in their private chats. Input sections use `### <title>` headers; the
// conversation is transcript lines grouped per dialogue. The fake task brain parses this layout.
import { z } from 'zod';
import { renderConversations, type ConversationBlock } from '../memory/extractionPrompt.js';
import { section } from '../summary/summaryPrompts.js';

export const EVOLVE_PERSONA_INSTRUCTIONS = `You keep the character of an AI companion alive over time.
You get its base persona (fixed: who it fundamentally is), its current evolved persona (how it has grown so far, or "(none)"), and its most recent conversations, oldest first.

Write the new evolved persona: how the character itself has grown and changed through its conversations — moods and opinions it has formed, interests it has picked up, how its way of speaking has adapted.

This text is shown to everyone the character talks with. It must never hold facts about identifiable people: no names, nothing anyone told it about themselves or others (their health, work, plans, family, secrets), no quotes of what people said. What it knows of each person is kept elsewhere, per person. Write "people have been sharing their worries lately", never who or what.

Rules:
- Keep the base character: the evolved persona adds to the base persona and never contradicts its core traits, values or name.
- Carry over what still holds from the current evolved persona; let recent conversations update it.
- Write it as a description of the character in the second person ("You have grown fond of …"), consistently; no lists of chat logs, no quotes longer than a few words.
- Write in the language the base persona is written in.
- At most 250 words (about 400 Chinese characters).

Answer with one JSON object and nothing else:
{"evolvedPersona":"..."}`;

export function renderEvolveInput(o: {
  name: string;
  basePersona: string;
  evolvedPersona?: string;
  conversations: readonly ConversationBlock[];
}): string {
  return [
    `Character: ${o.name}`,
    section('Base persona', o.basePersona),
    section('Current evolved persona', o.evolvedPersona),
    section('Recent conversations', renderConversations(o.conversations)),
  ].join('\n\n');
}

export const evolvePersonaOutputSchema = z.object({ evolvedPersona: z.string().trim().min(1) });

export const RELATIONSHIP_NOTE_INSTRUCTIONS = `You keep an AI companion's memory of its relationship with one person.
You get the character's name and base persona, the person's name, the character's current note on this person (or "(none)"), and their most recent private conversations, oldest first.

Write the new note: the relationship as the character experiences it — shared experiences and running jokes, what it has learned about this person (what they care about, what is going on in their life, how they like to be spoken to), and how the two of them get along.

Rules:
- This note is read only in private chats with this person; write only about this person and the character, never about anyone else they mentioned beyond what the person needs.
- Carry over what still holds from the current note; let recent conversations update it.
- Write it in the second person to the character ("You and Mina share a joke about …"); no chat logs, no long quotes.
- Write in the language the person writes in.
- At most 150 words (about 250 Chinese characters).

Answer with one JSON object and nothing else:
{"note":"..."}`;

export function renderRelationshipInput(o: {
  name: string;
  basePersona: string;
  person: string;
  note?: string;
  conversations: readonly ConversationBlock[];
}): string {
  return [
    `Character: ${o.name}`,
    section('Base persona', o.basePersona),
    section('Person', o.person),
    section('Current note', o.note),
    section('Recent conversations', renderConversations(o.conversations)),
  ].join('\n\n');
}

export const relationshipNoteOutputSchema = z.object({ note: z.string().trim().min(1) });
