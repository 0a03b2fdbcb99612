// The growth part's tables: one row per store size, the ratios largest ÷ smallest, the database
// commands per turn by kind, and the commands that are not `_id` lookups, by shape.
import type { GrowthResult, GrowthSizeResult } from './growth.js';
import type { TallyCounts } from './commandTally.js';
import type { TurnTiming } from './turns.js';
import { fmt, table } from './report.js';
import { percentile } from './stats.js';

const TOP_SHAPES = 15;

const p = (xs: readonly TurnTiming[], f: (t: TurnTiming) => number, q: number) => percentile(xs.map(f), q);
const total = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const perTurn = (count: number, s: GrowthSizeResult) => count / s.newChat.length;
const n = (v: number) => v.toLocaleString('en-US');

export function growthTable(r: GrowthResult, serverLabel: string): string {
  const rows = r.sizes.map((s) => {
    const c = s.commands.byKind;
    return [
      n(s.size),
      `${n(s.messages)} / ${n(s.docs)}`,
      fmt(s.padSeconds),
      `${fmt(p(s.newChat, (t) => t.total, 50))} / ${fmt(p(s.newChat, (t) => t.total, 99))}`,
      `${fmt(p(s.sameChat, (t) => t.total, 50))} / ${fmt(p(s.sameChat, (t) => t.total, 99))}`,
      fmt(p(s.newChat, (t) => t.preLlm, 50)),
      fmt(p(s.newChat, (t) => t.ingest, 50)),
      serverLabel ? fmt(perTurn(s.cpu.childrenMs ?? NaN, s)) : '–',
      fmt(perTurn(s.cpu.selfMs, s)),
      `${fmt(perTurn(total(c.idOnly), s))} / ${fmt(perTurn(total(c.other), s))}`,
      `${s.newChat.length} / ${s.sameChat.length}`,
    ];
  });
  return table(
    [
      'size (messages padded to)',
      'stored: messages / all docs',
      'padding (s)',
      'turn p50 / p99 (ms), new chat',
      'turn p50 / p99 (ms), one chat',
      'pre-LLM p50 (ms)',
      'ingest p50 (ms)',
      'server CPU ms/turn',
      'node CPU ms/turn',
      'commands/turn: _id-only / other',
      'turns timed (new / one chat)',
    ],
    rows,
  );
}

/** Largest size ÷ smallest for the latencies that should not grow with the store. */
export function growthRatios(r: GrowthResult): string[] {
  const first = r.sizes[0];
  const last = r.sizes.at(-1);
  if (!first || !last || first === last) return [];
  const ratio = (f: (s: GrowthSizeResult) => number) => `${fmt(f(last) / f(first))}×`;
  const at =
    (pick: (s: GrowthSizeResult) => readonly TurnTiming[], f: (t: TurnTiming) => number) => (s: GrowthSizeResult) =>
      p(pick(s), f, 50);
  return [
    `Growth ${n(last.size)} ÷ ${n(first.size)} messages: turn p50 new chat ${ratio(
      at(
        (s) => s.newChat,
        (t) => t.total,
      ),
    )}, turn p50 one chat ${ratio(
      at(
        (s) => s.sameChat,
        (t) => t.total,
      ),
    )}, ingest p50 ${ratio(
      at(
        (s) => s.newChat,
        (t) => t.ingest,
      ),
    )}, pre-LLM p50 ${ratio(
      at(
        (s) => s.newChat,
        (t) => t.preLlm,
      ),
    )}.`,
  ];
}

/** Commands per counted turn by command name: `_id`-only / other (and the driver's plumbing, counted apart). */
export function commandKindTable(r: GrowthResult): string {
  const kinds = new Set<string>();
  for (const s of r.sizes) for (const m of Object.values(s.commands.byKind)) for (const k of m.keys()) kinds.add(k);
  const cell = (s: GrowthSizeResult, k: string) => {
    const c: TallyCounts['byKind'] = s.commands.byKind;
    const ignored = c.ignored.get(k);
    if (ignored !== undefined) return `(${fmt(perTurn(ignored, s))} plumbing)`;
    return `${fmt(perTurn(c.idOnly.get(k) ?? 0, s))} / ${fmt(perTurn(c.other.get(k) ?? 0, s))}`;
  };
  return table(
    ['command', ...r.sizes.map((s) => `${n(s.size)}: _id-only / other per turn`)],
    [...kinds].sort().map((k) => [k, ...r.sizes.map((s) => cell(s, k))]),
  );
}

/** The most frequent non-`_id` commands of each size: what the hot path asks the server to search. */
export function shapeTables(r: GrowthResult): string[] {
  return r.sizes.flatMap((s) => {
    const shapes = [...s.commands.otherShapes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const shown = shapes.slice(0, TOP_SHAPES);
    const rest = shapes.slice(TOP_SHAPES).reduce((a, [, count]) => a + count, 0);
    return [
      '',
      `"Other" commands at ${n(s.size)} messages (${shapes.length} shapes; collection, command, filter keys (key:$operator), sort), per counted turn:`,
      '',
      table(
        ['shape', 'per turn'],
        [
          ...shown.map(([shape, count]) => [`\`${shape}\``, fmt(perTurn(count, s))]),
          ...(rest > 0 ? [[`(${shapes.length - shown.length} more shapes)`, fmt(perTurn(rest, s))]] : []),
        ],
      ),
    ];
  });
}

export function growthNotes(r: GrowthResult): string[] {
  const notes = [
    `Each size: a fresh database and app (worker role, memory jobs on), one real turn captured as the padding's templates, history padded with the raw driver, ${r.cfg.warmup} untimed warm-up turns, then turns one at a time with the memory queue waited for (≤ 5 s) after each. Turn = handleInbound called → turn closed (before that wait).`,
    "Commands and CPU cover the new-chat turns and their memory jobs (waited for after the last one); the bench's own reads go through another client. Server CPU = the processes this run started; node CPU = this process (app, fakes, bench).",
  ];
  for (const s of r.sizes) {
    const parts = [
      s.padInserted > 0
        ? `padded ${n(s.padInserted)} documents in ${fmt(s.padSeconds)} s (${fmt(s.padInserted / s.padSeconds)}/s)`
        : 'nothing padded',
      `${s.eventsPerTurn} events a turn${Number.isFinite(s.contextEventBytes) ? ` (padded context_built data ~${fmt(s.contextEventBytes)} B)` : ''}`,
      `memory template ${s.memoryFromTurn ? "from the turn's extraction" : 'built from the MemoryEntry type'}`,
      `${s.memoryWaitCapped} post-turn waits hit the 5 s cap`,
      `stored: ${Object.entries(s.perCollection)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(', ')}`,
    ];
    notes.push(`${n(s.size)}: ${parts.join('; ')}.`);
    if (s.cutNote) notes.push(`${n(s.size)}: ${s.cutNote}.`);
    if (!s.settled)
      notes.push(
        `${n(s.size)}: memory jobs were still running 10 min after the last counted turn; their later commands and CPU are not counted.`,
      );
  }
  if (r.failure) notes.push(`Note: ${r.failure}.`);
  return notes;
}
