// Small Markdown tables. The ratio column is always "how many times the floor's cost":
// pipeline ÷ floor for times, floor ÷ pipeline for rates (so both read the same way).

export interface Row {
  measure: string;
  floor: number;
  pipeline: number;
  /** 'time': lower is better; 'rate': higher is better. */
  kind: 'time' | 'rate';
}

export const fmt = (v: number): string =>
  !Number.isFinite(v) ? '–' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);

export function ratio(r: Row): number {
  return r.kind === 'time' ? r.pipeline / r.floor : r.floor / r.pipeline;
}

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function comparisonTable(rows: readonly Row[]): string {
  return table(
    ['measure', 'floor (insert+enqueue+dequeue)', 'pipeline', 'ratio'],
    rows.map((r) => [r.measure, fmt(r.floor), fmt(r.pipeline), `${fmt(ratio(r))}×`]),
  );
}
