// Per-turn checks over every prompt a turn sent (wire and trace). Each problem is one soft
// failure whose message names the scenario, the simulated day and time, the turn and the
// prompt, so one run lists every leak of a week instead of stopping at the first.
import { expect } from 'vitest';
import type { LifeTurn, SeenPrompt } from './lifeRig.js';

const CONTEXT_CHARS = 40;

/** The prompt's text around `needle`, on one line: where it showed up. */
function around(text: string, needle: string): string {
  const at = text.indexOf(needle);
  const from = Math.max(0, at - CONTEXT_CHARS);
  const to = Math.min(text.length, at + needle.length + CONTEXT_CHARS);
  return `${from > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ')}${to < text.length ? '…' : ''}`;
}

/** "wire prompt 2": the prompt's place among the turn's prompts of its source. */
const name = (all: readonly SeenPrompt[], p: SeenPrompt): string =>
  `${p.source} prompt ${all.filter((x) => x.source === p.source).indexOf(p) + 1}`;

/** Problems: a prompt of the turn (or of any labelled set of prompts) holds one of `needles`. */
export function leaks(turn: Pick<LifeTurn, 'label' | 'prompts'>, needles: readonly string[]): string[] {
  return turn.prompts.flatMap((p) =>
    needles
      .filter((n) => p.text.includes(n))
      .map((n) => `${turn.label}: ${name(turn.prompts, p)} holds '${n}' (${around(p.text, n)})`),
  );
}

/** Problems: a prompt of the turn lacks one of `needles` (or the turn sent none). */
export function misses(turn: LifeTurn, needles: readonly string[]): string[] {
  if (turn.prompts.length === 0) return [`${turn.label}: no prompt was sent`];
  return turn.prompts.flatMap((p) =>
    needles.filter((n) => !p.text.includes(n)).map((n) => `${turn.label}: ${name(turn.prompts, p)} lacks '${n}'`),
  );
}

/** Problems: a prompt's recorded token total is over `limit`, or an answered turn recorded none. */
export function overBudget(turn: LifeTurn, limit: number): string[] {
  const traced = turn.prompts.filter((p) => p.source === 'trace');
  const problems = traced
    .filter((p) => p.totalTokens === undefined || p.totalTokens > limit)
    .map((p) =>
      p.totalTokens === undefined
        ? `${turn.label}: a context_built event has no totalTokens`
        : `${turn.label}: prompt of ${p.totalTokens} tokens is over limits.max_total_tokens ${limit}`,
    );
  const answered = turn.prompts.some((p) => p.source === 'wire');
  return answered && traced.length === 0 ? [...problems, `${turn.label}: no context_built event`] : problems;
}

/** Each problem becomes one soft failure of the running test, prefixed by the scenario. */
export function report(scenario: string, problems: readonly string[]): void {
  for (const p of problems) expect.soft(true, `${scenario} — ${p}`).toBe(false);
}

/** No prompt of any of `turns` holds any of `needles`. */
export function expectNoLeak(scenario: string, turns: readonly LifeTurn[], needles: readonly string[]): void {
  report(
    scenario,
    turns.flatMap((t) => leaks(t, needles)),
  );
}

/** Every prompt of `turn` holds every one of `needles`. */
export function expectHolds(scenario: string, turn: LifeTurn, needles: readonly string[]): void {
  report(scenario, misses(turn, needles));
}

/** Every prompt of every turn stays within the configured budget. */
export function expectWithinBudget(scenario: string, turns: readonly LifeTurn[], limit: number): void {
  report(
    scenario,
    turns.flatMap((t) => overBudget(t, limit)),
  );
}
