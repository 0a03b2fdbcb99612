// An agent form's draft: its fields as typed, from a stored agent or empty, and the variables
// createAgent and updateAgent take from it.
import type { AgentDetail } from './setupTypes.js';

export interface AgentDraft {
  name: string;
  persona: string;
  aliases: string;
  intro: string;
  model: string;
  temperature: string;
  maxTokens: string;
}

/** A number field's text as the API takes it: empty clears the setting (the deployment's applies). */
export const numberOf = (text: string): number | null => (text.trim() ? Number(text) : null);
export const textOf = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(n));

export const aliasesOf = (text: string): string[] =>
  text
    .split(/[,，]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The agent's fields as the form shows them; a new agent's all empty. */
export const draftOf = (a?: AgentDetail): AgentDraft => ({
  name: a?.name ?? '',
  persona: a?.basePersona ?? '',
  aliases: (a?.aliases ?? []).join(', '),
  intro: a?.introduction ?? '',
  model: a?.modelSettings?.name ?? '',
  temperature: textOf(a?.modelSettings?.temperature),
  maxTokens: textOf(a?.modelSettings?.maxOutputTokens),
});

/** The mutation's variables: every setting is sent, an emptied one as null (the deployment's). */
export const agentVars = (d: AgentDraft) => ({
  name: d.name,
  basePersona: d.persona,
  aliases: aliasesOf(d.aliases),
  introduction: d.intro.trim() || null,
  modelSettings: {
    name: d.model.trim() || null,
    temperature: numberOf(d.temperature),
    maxOutputTokens: numberOf(d.maxTokens),
  },
});
