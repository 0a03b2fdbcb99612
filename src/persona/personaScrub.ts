// The check on the agent-wide evolved persona (SPEC §13): it is shown to everyone the agent
// talks with, so it must never hold facts about identifiable people. Whatever the model wrote,
// a sentence that names a person the agent knows, or repeats what a person said (a run of their
// words), is dropped — extraction-style filtering, not trust in the instructions. Pure.
import { normalizeMemoryText } from '../memory/normalize.js';

export interface KnownPeople {
  /** Display names and names people asked to be called. */
  names: readonly string[];
  /** What people said (their messages), to catch a confidence repeated without a name. */
  said: readonly string[];
}

export interface Scrubbed {
  text: string;
  /** Sentences taken out (their count is recorded; their text never reaches a log). */
  dropped: number;
}

/** A Chinese run this long, or this many words in a row, is a quotation, not a coincidence. */
const HAN_RUN = 5;
const WORD_RUN = 5;
const MIN_NAME_CHARS = 2;

// Cut after a sentence end in Chinese or English (a full stop only before a space, so "3.5"
// and "Dr.Li" stay whole), a list separator or a line break.
const SENTENCE_END = /(?<=[。！？!?；;\n])|(?<=\.)(?=\s)/u;

export function scrubPeople(text: string, known: KnownPeople): Scrubbed {
  const names = known.names.map((n) => n.trim().toLowerCase()).filter((n) => Array.from(n).length >= MIN_NAME_CHARS);
  const quoted = quotationKeys(known.said);
  let dropped = 0;
  const kept: string[] = [];
  for (const piece of text.split(SENTENCE_END)) {
    const lower = piece.toLowerCase();
    const about = names.some((n) => containsName(lower, n)) || keysOf(piece).some((k) => quoted.has(k));
    if (about && piece.trim()) dropped++;
    else kept.push(piece);
  }
  return { text: tidy(kept.join('')), dropped };
}

/** A latin name must stand as a word ("Ann" is not in "annual"); a Chinese one anywhere. */
function containsName(text: string, name: string): boolean {
  if (/\p{Script=Han}/u.test(name)) return text.includes(name);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

/** Every run of HAN_RUN Chinese characters and of WORD_RUN words, normalised. */
function keysOf(text: string): string[] {
  const norm = normalizeMemoryText(text);
  const keys: string[] = [];
  for (const run of norm.match(/\p{Script=Han}+/gu) ?? []) {
    const chars = Array.from(run);
    for (let i = 0; i + HAN_RUN <= chars.length; i++) keys.push(chars.slice(i, i + HAN_RUN).join(''));
  }
  const words = norm
    .replace(/\p{Script=Han}+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  for (let i = 0; i + WORD_RUN <= words.length; i++) keys.push(words.slice(i, i + WORD_RUN).join(' '));
  return keys;
}

function quotationKeys(said: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const s of said) for (const k of keysOf(s)) out.add(k);
  return out;
}

function tidy(text: string): string {
  return text
    .replace(/([。！？；])[ \t]+/gu, '$1')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
