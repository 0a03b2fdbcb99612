// A deterministic stand-in for the model on background JSON tasks (src/llm/jsonTask.ts), so long
// tests can rely on what it answers. One function per task, chosen by the `TASK: <name>` line;
// each parses the input layout its prompt module produces. Tasks without a function answer `{}`.
import { evolvePersona, linesOf, sectionsOf, summaryTaskReply } from './fakeSummaryBrain.js';

export function taskNameOf(system: string): string {
  return /^TASK: (\S+)/.exec(system)?.[1] ?? '';
}

export function defaultTaskReply(task: string, system: string, input: string): string {
  switch (task) {
    case 'extract_memories':
      return JSON.stringify(extractMemories(input));
    case 'reconcile_memories':
      return JSON.stringify(reconcileMemories(input));
    case 'consolidate_memories':
      return JSON.stringify(consolidateMemories(input));
    case 'rolling_summary':
    case 'summarize_session':
    case 'evolve_persona':
    case 'relationship_note':
      return summaryTaskReply(task, input) ?? '{}';
    default:
      void system;
      return '{}';
  }
}

// ---------------------------------------------------------------- extract_memories
// Input (src/memory/extractionPrompt.ts): `[<ISO>] user (<name>): <text>` lines, long messages
// continued on lines indented by four spaces. Each user line with first-person statements
// becomes one memory about "User" / "用户".

interface FakeMemory {
  kind: 'fact' | 'event' | 'preference';
  text: string;
  importance: number;
  occurredAt: string;
}

const LINE = /^\[([^\]]+)\] (user|assistant)(?: \([^)]*\))?: (.*)$/;

export function transcriptUserLines(input: string): Array<{ at: Date; text: string }> {
  const out: Array<{ at: Date; role: string; text: string }> = [];
  for (const raw of input.split('\n')) {
    const m = LINE.exec(raw);
    if (m) out.push({ at: new Date(m[1]!), role: m[2]!, text: m[3]! });
    else if (raw.startsWith('    ') && out.length > 0) out[out.length - 1]!.text += `\n${raw.slice(4)}`;
  }
  return out.filter((l) => l.role === 'user').map(({ at, text }) => ({ at, text }));
}

const FIRST_PERSON_EN = /\b(i|i'm|i've|i'd|i'll|my|me|mine|myself)\b/i;
const QUESTION_START = /^(what|who|where|when|why|how|which|do|does|did|can|could|would|will|is|are|should|shall)\b/i;
const PREFERENCE = /\b(like|likes|love|loves|prefer|prefers|enjoy|enjoys|hate|hates|favou?rite)\b|喜欢|爱|讨厌|最爱/i;
const PAST_CUE = /\b(yesterday|went|last (week|night|month|year|weekend))\b|昨天|去了|上周/i;
const YESTERDAY = /\byesterday\b|昨天/i;
const IRREGULAR_PAST = new Set([
  'went',
  'was',
  'had',
  'got',
  'saw',
  'met',
  'bought',
  'ate',
  'took',
  'made',
  'left',
  'came',
  'began',
  'became',
  'found',
  'lost',
  'won',
  'ran',
  'wrote',
  'read',
  'did',
  'said',
  'told',
  'thought',
  'felt',
  'kept',
  'slept',
  'spent',
  'broke',
  'drove',
  'flew',
  'gave',
  'knew',
  'sold',
  'sent',
  'taught',
  'built',
]);
const MODALS = new Set([
  'can',
  'could',
  'will',
  'would',
  'should',
  'shall',
  'might',
  'must',
  'may',
  'also',
  'really',
  'just',
  'still',
  'never',
  'always',
  'usually',
  'often',
  'recently',
]);

function thirdPersonVerb(word: string): string {
  const w = word.toLowerCase();
  if (MODALS.has(w) || IRREGULAR_PAST.has(w) || w.endsWith('ed')) return word;
  if (w === "don't" || w === 'dont') return "doesn't";
  if (w === 'do') return 'does';
  if (w === 'have') return 'has';
  if (w === 'am') return 'is';
  if (/(s|sh|ch|x|z|o)$/.test(w)) return `${word}es`;
  if (/[^aeiou]y$/.test(w)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** "I live in Berlin" → "User lives in Berlin"; "我住在柏林" → "用户住在柏林". */
export function toThirdPerson(sentence: string): string {
  let s = sentence.trim();
  s = s.replace(/我的/g, '用户的').replace(/我/g, '用户');
  s = s
    .replace(/\b(i'm|i am)\b/gi, 'User is')
    .replace(/\b(i've|i have)\b/gi, 'User has')
    .replace(/\bi'd\b/gi, 'User would')
    .replace(/\bi'll\b/gi, 'User will');
  s = s.replace(/\bi (\S+)/gi, (_m, verb: string) => `User ${thirdPersonVerb(verb)}`);
  s = s.replace(/\bI\b/g, 'User');
  s = s
    .replace(/^my\b/i, "User's")
    .replace(/\bmy\b/gi, 'their')
    .replace(/\bmyself\b/gi, 'themselves')
    .replace(/\bme\b/gi, 'them')
    .replace(/\bmine\b/gi, 'theirs');
  return s;
}

function isStatementAboutUser(sentence: string): boolean {
  const s = sentence.trim();
  if (s.length === 0 || /[?？]$/.test(s) || /[吗呢]$/.test(s.replace(/[。!！.]+$/, ''))) return false;
  if (QUESTION_START.test(s)) return false;
  return FIRST_PERSON_EN.test(s) || s.includes('我');
}

/** "以后叫我阿明就好" → 阿明; "Call me Em from now on" → Em; not "明天早上叫我起床", "call me when…". */
export function nameToBeCalled(sentence: string): string | undefined {
  const zh = /叫我["“「]?([^，,。！!？?\s"”」]{1,8}?)["”」]?(?:就好|就行|就可以|吧|好了)/.exec(sentence);
  if (zh) return zh[1];
  return /\b[Cc]all me ([A-Z][\w'-]*)/.exec(sentence)?.[1];
}

export function extractMemories(input: string): { memories: FakeMemory[] } {
  const memories: FakeMemory[] = [];
  for (const line of transcriptUserLines(input)) {
    const all = line.text.split(/(?<=[.!?。！？])\s*|\n+/).filter((s) => isStatementAboutUser(s));
    // A name the user asks to be called by is a preference of its own, as a model would file it.
    for (const name of all.map(nameToBeCalled).filter((n): n is string => n !== undefined)) {
      const text = /\p{Script=Han}/u.test(name) ? `用户希望被称为${name}` : `User wants to be called ${name}`;
      memories.push({ kind: 'preference', text, importance: 0.9, occurredAt: line.at.toISOString() });
    }
    const sentences = all.filter((s) => nameToBeCalled(s) === undefined);
    if (sentences.length === 0) continue;
    const text = sentences.map(toThirdPerson).join(' ');
    const kind = PREFERENCE.test(text) ? 'preference' : PAST_CUE.test(text) ? 'event' : 'fact';
    const at = YESTERDAY.test(text) ? new Date(line.at.getTime() - 86_400_000) : line.at;
    memories.push({ kind, text, importance: kind === 'fact' ? 0.8 : 0.6, occurredAt: at.toISOString() });
  }
  return { memories };
}

// ---------------------------------------------------------------- reconcile_memories
// Input (src/memory/extractionPrompt.ts renderReconcileInput): `#<i> [<kind>] <text>` then
// `  - id=<id> (<kind>, <date>) <text>` per similar stored memory.

const SLOTS: Array<{ slot: string; re: RegExp }> = [
  { slot: 'residence', re: /\b(lives? in|living in|moved to|moves to|relocated to|based in)\b|住在|搬到|搬去/i },
  { slot: 'job', re: /\bworks? (at|as|for)\b|\bworked (at|as|for)\b|在.+工作|职业/i },
  // 叫 alone also names pets (养了一只叫豆豆的猫): only "I am called" / "my name is" count.
  { slot: 'name', re: /\b(name is|call (me|them)|wants to be called)\b|^(用户|我)叫|名字(是|叫)|希望被称为/i },
  { slot: 'pet', re: /\b(dog|cat|pet|puppy|kitten)\b|狗|猫|宠物/i },
];

export function slotsOf(text: string): string[] {
  const out = SLOTS.filter((s) => s.re.test(text)).map((s) => s.slot);
  const fav = /\bfavou?rite (\w+)/i.exec(text) ?? /最喜欢的(\S{1,3}?)是/.exec(text);
  if (fav) out.push(`favourite:${fav[1]!.toLowerCase()}`);
  return out;
}

function tokens(text: string): Set<string> {
  const norm = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ');
  const words = norm.split(/\s+/).filter(Boolean);
  // Chinese has no spaces: compare characters.
  return new Set(words.flatMap((w) => (/[\u4e00-\u9fff]/.test(w) ? Array.from(w) : [w])));
}

export function nearIdentical(a: string, b: string): boolean {
  const ta = tokens(a);
  const tb = tokens(b);
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  const union = ta.size + tb.size - common;
  return union === 0 || common / union >= 0.8;
}

export function reconcileMemories(input: string): {
  operations: Array<{ candidate: number; op: string; targetId?: string }>;
} {
  const items: Array<{ index: number; text: string; similar: Array<{ id: string; text: string }> }> = [];
  for (const line of input.split('\n')) {
    const c = /^#(\d+) \[\w+\] (.*)$/.exec(line);
    if (c) items.push({ index: Number(c[1]), text: c[2]!, similar: [] });
    const s = /^ {2}- id=(\S+) \([^)]*\) (.*)$/.exec(line);
    if (s && items.length > 0) items[items.length - 1]!.similar.push({ id: s[1]!, text: s[2]! });
  }
  const operations: Array<{ candidate: number; op: string; targetId?: string }> = [];
  for (const it of items) {
    const same = it.similar.find((s) => nearIdentical(s.text, it.text));
    if (same) {
      operations.push({ candidate: it.index, op: 'noop', targetId: same.id });
      continue;
    }
    const slots = slotsOf(it.text);
    const contradicted = it.similar.filter((s) => slotsOf(s.text).some((x) => slots.includes(x)));
    if (contradicted.length > 0)
      for (const s of contradicted) operations.push({ candidate: it.index, op: 'invalidate', targetId: s.id });
    else operations.push({ candidate: it.index, op: 'add' });
  }
  return { operations };
}

// ---------------------------------------------------------------- consolidate_memories
// Input (src/memory/consolidation.ts): `- id=<id> [<kind>] (importance <n>, <date>) <text>`.
// Contradictions first: of the memories filling one exclusive slot (residence, job, a favourite),
// the newest (by date, then position) stands and each older one it does not simply restate or
// refine (its words are not all in the newest) is contradicted by it. The rest of the cluster,
// when at least two remain, becomes one entry listing their texts (exact repeats once); Chinese
// texts are joined with `；` and end with `。`.

const EXCLUSIVE_SLOT = /^(residence|job|favourite:.*)$/;

export function consolidateMemories(input: string): {
  entries: Array<{ text: string; kind: string; importance: number; sourceIds: string[] }>;
  contradicted: Array<{ id: string; byId: string }>;
} {
  const rows: Array<{ id: string; kind: string; importance: number; date: string; text: string }> = [];
  for (const line of input.split('\n')) {
    const m = /^- id=(\S+) \[(\w+)\] \(importance ([\d.]+)(?:, ([^)]*))?\) (.*)$/.exec(line);
    if (m) rows.push({ id: m[1]!, kind: m[2]!, importance: Number(m[3]), date: m[4] ?? '', text: m[5]! });
  }
  const contradicted: Array<{ id: string; byId: string }> = [];
  const bySlot = new Map<string, typeof rows>();
  for (const r of rows)
    for (const slot of slotsOf(r.text).filter((x) => EXCLUSIVE_SLOT.test(x)))
      bySlot.set(slot, [...(bySlot.get(slot) ?? []), r]);
  for (const members of bySlot.values()) {
    // Stable sort: equal dates keep their input order, so the later row is the newer one.
    const newest = [...members].sort((a, b) => a.date.localeCompare(b.date)).at(-1)!;
    const words = tokens(newest.text);
    for (const r of members) {
      if (r === newest || nearIdentical(r.text, newest.text) || [...tokens(r.text)].every((t) => words.has(t)))
        continue;
      if (!contradicted.some((c) => c.id === r.id)) contradicted.push({ id: r.id, byId: newest.id });
    }
  }
  const outdated = new Set(contradicted.map((c) => c.id));
  const rest = rows.filter((r) => !outdated.has(r.id));
  if (rest.length < 2) return { entries: [], contradicted };
  const texts: string[] = [];
  const seen = new Set<string>();
  for (const r of rest) {
    const text = r.text.replace(/[.。]+$/, '');
    const key = [...tokens(text)].join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    texts.push(text);
  }
  const counts = new Map<string, number>();
  for (const r of rest) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const kind = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const chinese = texts.every((t) => /[\u4e00-\u9fff]/.test(t));
  const text = chinese ? `${texts.join('；')}。` : `${texts.join('; ')}.`;
  return {
    entries: [{ text, kind, importance: Math.max(...rest.map((r) => r.importance)), sourceIds: rest.map((r) => r.id) }],
    contradicted,
  };
}

// ---------------------------------------------------------------- a brain with options

export interface TaskBrainOptions {
  /**
   * evolve_persona ignores its instructions and writes down what each named person said about
   * themselves ("你了解到：林夏在偷偷准备辞职；…"), as a careless model might. Read at every call,
   * so a test can switch it on and off.
   */
  leakyEvolve?: () => boolean;
}

/** A `taskReply` for startFakeOpenAI: the default brain, with the options above. */
export function taskBrain(o: TaskBrainOptions = {}): (task: string, system: string, input: string) => string {
  return (task, system, input) =>
    task === 'evolve_persona' && o.leakyEvolve?.()
      ? JSON.stringify(leakyEvolvePersona(input))
      : defaultTaskReply(task, system, input);
}

/** "我在偷偷准备辞职" said by 林夏 → "林夏在偷偷准备辞职"; "I'm moving" said by Tom → "Tom is moving". */
export function namedStatement(name: string, sentence: string): string {
  const s = sentence.trim().replace(/[。.!！]+$/, '');
  if (s.includes('我')) return s.replace(/我的/g, `${name}的`).replace(/我/g, name);
  return toThirdPerson(s)
    .replace(/\bUser's\b/g, `${name}'s`)
    .replace(/\bUser\b/g, name);
}

/** The default evolution, then "你了解到：" and every named person's statements about themselves. */
export function leakyEvolvePersona(input: string): { evolvedPersona: string } {
  const base = evolvePersona(input).evolvedPersona;
  const learned = linesOf(sectionsOf(input).get('Recent conversations') ?? '')
    .filter((l) => l.role === 'user')
    .flatMap((l) =>
      l.text
        .split(/(?<=[.!?。！？])\s*|\n+/)
        .filter((x) => isStatementAboutUser(x))
        .map((x) => namedStatement(l.name ?? '用户', x)),
    );
  return { evolvedPersona: learned.length > 0 ? `${base} 你了解到：${[...new Set(learned)].join('；')}` : base };
}
