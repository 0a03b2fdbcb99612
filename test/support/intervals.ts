// Overlap of timed intervals (model calls open together), for tests and the capacity bench.

/** The largest number of [start, end] intervals open at one moment. */
export function mostAtOnce(intervals: Array<[number, number]>): number {
  const edges = intervals.flatMap(([a, b]): Array<[number, number]> => [
    [a, 1],
    [b, -1],
  ]);
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let open = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (open += d));
  return most;
}
