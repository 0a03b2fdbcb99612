// Reading Prometheus' text exposition in tests.

/** Value of one series (labels as given, exact) in Prometheus text; undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = (m[2] ?? '').split(',').filter(Boolean).sort();
    if (want.every((w) => got.includes(w))) return Number(m[3]);
  }
  return undefined;
}
