// Deterministic answers for the summary tasks (rolling_summary, summarize_session,
// evolve_persona, relationship_note), computed from their inputs so tests through the real
// pipeline can check content. Inputs follow src/summary/summaryPrompts.ts and src/persona/evolvePrompt.ts: `### <title>`
// sections, transcript lines `[<ISO>] user (<name>): <text>`, `assistant (<name>)`, `operator`
// (continuations indented four spaces). Like a model following the summary prompts, the summaries
// keep who said what: each speaker as the transcript names them, never one merged "assistant".
// Does not import src/: it reads the wire text like a model would.

const NONE = '(none)';

/** The body of each `### <title>` section, by title; `(none)` reads as empty. */
export function sectionsOf(input: string): Map<string, string> {
  const out = new Map<string, string>();
  let title: string | undefined;
  let body: string[] = [];
  const flush = (): void => {
    if (title === undefined) return;
    const text = body.join('\n').trim();
    out.set(title, text === NONE ? '' : text);
  };
  for (const line of input.split('\n')) {
    const h = /^### (.+)$/.exec(line);
    if (h) {
      flush();
      title = h[1]!.trim();
      body = [];
    } else if (title !== undefined) body.push(line);
  }
  flush();
  return out;
}

export interface FakeLine {
  at: Date;
  role: 'user' | 'assistant' | 'operator';
  name?: string;
  text: string;
}

const LINE = /^\[([^\]]+)\] (user|assistant|operator)(?: \(([^)]*)\))?: (.*)$/;

const ROLE_NAME: Record<FakeLine['role'], string> = { user: 'User', assistant: 'Assistant', operator: 'Operator' };

/** Who said a line, as the transcript names them. */
export const speakerOf = (l: FakeLine): string => l.name ?? ROLE_NAME[l.role];

export function linesOf(text: string): FakeLine[] {
  const out: FakeLine[] = [];
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw);
    if (m)
      out.push({ at: new Date(m[1]!), role: m[2] as FakeLine['role'], ...(m[3] ? { name: m[3] } : {}), text: m[4]! });
    else if (raw.startsWith('    ') && out.length > 0) out[out.length - 1]!.text += `\n${raw.slice(4)}`;
  }
  return out;
}

const firstSentence = (t: string): string => (t.split(/(?<=[.!?。！？])\s*|\n/)[0] ?? t).trim();

/** Words, counting a Chinese character as about 0.6 of one (the prompt's 300 words ≈ 500 characters). */
const wordsIn = (t: string): number =>
  (t.match(/[A-Za-z0-9']+/g)?.length ?? 0) + (t.match(/\p{Script=Han}/gu)?.length ?? 0) * 0.6;
export const FAKE_SUMMARY_MAX_WORDS = 300;

/**
 * Previous summary, then one `- <who>: <first sentence>` line per folded message, each speaker
 * named as the transcript names them (people, each AI by its name, the operator); like a model
 * following the prompt's length rule, the oldest lines go first once it passes 300 words.
 */
export function rollingSummary(input: string): { summary: string } {
  const s = sectionsOf(input);
  const folded = linesOf(s.get('Messages to fold') ?? '').map((l) => `- ${speakerOf(l)}: ${firstSentence(l.text)}`);
  const previous = s.get('Current summary') ?? '';
  const lines = [...previous.split('\n'), ...folded].filter(Boolean);
  while (lines.length > 1 && wordsIn(lines.join('\n')) > FAKE_SUMMARY_MAX_WORDS) lines.shift();
  return { summary: lines.join('\n') || 'Nothing of note.' };
}

/**
 * summary = per speaker (in order of their first line) the first sentences of their first three
 * lines, `<who> talked about: a / b / c`; plotPoints = user lines; details = all lines, named.
 */
export function summarizeSession(input: string): { summary: string; plotPoints: string[]; details: string[] } {
  const s = sectionsOf(input);
  const lines = linesOf(s.get('Conversation') ?? '');
  const user = lines.filter((l) => l.role === 'user');
  const earlier = s.get('Earlier summary') ?? '';
  const bySpeaker = new Map<string, string[]>();
  for (const l of lines) bySpeaker.set(speakerOf(l), [...(bySpeaker.get(speakerOf(l)) ?? []), firstSentence(l.text)]);
  const talked = [...bySpeaker].map(([who, said]) => `${who} talked about: ${said.slice(0, 3).join(' / ')}`);
  const summary = [
    earlier ? `Earlier: ${earlier.replace(/\n/g, ' ')}` : '',
    talked.length > 0 ? talked.join(' ') : 'Nothing was said.',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    summary,
    plotPoints: user.map((l) => `${speakerOf(l)} said: ${l.text.replace(/\n/g, ' ')}`),
    details: lines.map((l) => `${speakerOf(l)}: ${l.text.replace(/\n/g, ' ')}`),
  };
}

/** The old evolved persona (if any) + "Recently: <topics>", topics = first words of the user's lines. */
export function evolvePersona(input: string): { evolvedPersona: string } {
  const s = sectionsOf(input);
  const topics = linesOf(s.get('Recent conversations') ?? '')
    .filter((l) => l.role === 'user')
    .map((l) => firstSentence(l.text).split(/\s+/).slice(0, 4).join(' '))
    .slice(-5);
  const old = s.get('Current evolved persona') ?? '';
  return { evolvedPersona: [old, `Recently: ${topics.join('; ') || 'nothing new'}.`].filter(Boolean).join(' ') };
}

/**
 * Task relationship_note (the agent's note on one person): the old note (if any) + "Recently:
 * <topics>" from that person's lines — lines named after someone else are theirs, not this
 * person's; unnamed lines count.
 */
export function relationshipNote(input: string): { note: string } {
  const s = sectionsOf(input);
  const person = s.get('Person') ?? '';
  const topics = linesOf(s.get('Recent conversations') ?? '')
    .filter((l) => l.role === 'user' && (l.name === undefined || person.includes(l.name)))
    .map((l) => firstSentence(l.text).split(/\s+/).slice(0, 4).join(' '))
    .slice(-5);
  const old = s.get('Current note') ?? '';
  return { note: [old, `Recently: ${topics.join('; ') || 'nothing new'}.`].filter(Boolean).join(' ') };
}

/** The summary tasks' answers as JSON text; undefined for other tasks. */
export function summaryTaskReply(task: string, input: string): string | undefined {
  switch (task) {
    case 'rolling_summary':
      return JSON.stringify(rollingSummary(input));
    case 'summarize_session':
      return JSON.stringify(summarizeSession(input));
    case 'evolve_persona':
      return JSON.stringify(evolvePersona(input));
    case 'relationship_note':
      return JSON.stringify(relationshipNote(input));
    default:
      return undefined;
  }
}
