// The rooms part's tables (rooms.ts): a round against one answer, and the round's commands.
import type { TallyCounts } from './commandTally.js';
import type { RoomBenchResult } from './rooms.js';
import { fmt, table } from './report.js';
import { summarize } from './stats.js';

export function roomTables(r: RoomBenchResult): string[] {
  const round = summarize(r.rounds);
  const single = summarize(r.singles);
  const inRow = summarize(r.turnsInRow);
  const per = (v: number) => fmt(v / Math.max(1, r.countedRounds));
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const shapes = [...r.commands.otherShapes].sort((a, b) => b[1] - a[1]);
  return [
    table(
      [
        'measure',
        `round of ${r.agents} agents (→ last answer)`,
        'one agent (→ its answer)',
        'ratio',
        `${r.agents} single-agent turns in a row`,
      ],
      [
        ['p50 (ms)', fmt(round.p50), fmt(single.p50), `${fmt(round.p50 / single.p50)}×`, fmt(inRow.p50)],
        ['p99 (ms)', fmt(round.p99), fmt(single.p99), `${fmt(round.p99 / single.p99)}×`, fmt(inRow.p99)],
      ],
    ),
    '',
    `Database commands per round (${r.countedRounds} rounds, post-turn memory jobs included): ${per(sum(r.commands.byKind.idOnly))} by _id only (and inserts), ${per(sum(r.commands.byKind.other))} other.`,
    ...(shapes.length > 0
      ? [
          '',
          table(
            ['other command shape', 'per round'],
            shapes.map(([s, c]) => [`\`${s}\``, per(c)]),
          ),
        ]
      : []),
  ];
}

export function mergeCounts(a: TallyCounts, b: TallyCounts): TallyCounts {
  const add = (x: Map<string, number>, y: Map<string, number>) => {
    const out = new Map(x);
    for (const [k, v] of y) out.set(k, (out.get(k) ?? 0) + v);
    return out;
  };
  return {
    byKind: {
      idOnly: add(a.byKind.idOnly, b.byKind.idOnly),
      other: add(a.byKind.other, b.byKind.other),
      ignored: add(a.byKind.ignored, b.byKind.ignored),
    },
    otherShapes: add(a.otherShapes, b.otherShapes),
  };
}
