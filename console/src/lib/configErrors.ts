// CONFIG_INVALID names every bad field and its range in one message, problems joined by "; "
// (e.g. "thresholds.recall_top_k must be an integer between 1 and 20 (got 50)"). Each problem
// goes to the first field path it names, so the page can show it beside that input.
export function fieldErrors(
  message: string,
  paths: readonly string[],
): { byPath: Record<string, string>; other: string[] } {
  const byPath: Record<string, string> = {};
  const other: string[] = [];
  for (const problem of message
    .split('; ')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const named = paths
      .map((p) => ({ p, at: problem.indexOf(p) }))
      .filter((x) => x.at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (named) byPath[named.p] = byPath[named.p] ? `${byPath[named.p]}; ${problem}` : problem;
    else other.push(problem);
  }
  return { byPath, other };
}
