// ARCHITECTURE.md stays a true, short map: every repository path it names (a backticked
// `src/respond/`, `src/domain/floor.ts`, `adapters/telegram/`, `eslint.config.js`) exists, every
// row of "Where each rule lives" names a module that exists, and the file stays within its size.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAP = readFileSync(new URL('../../ARCHITECTURE.md', import.meta.url), 'utf8');
const MAX_LINES = 225;

/** Backticked spans of the prose and tables (fenced blocks are drawings, not names). */
function backticked(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
}

/**
 * Whether a span names a path in this repository: a relative path with a folder (`src/ops/`) or
 * a file name with an extension (`eslint.config.js`). Paths outside the repository
 * (`../shared/SPEC.md`), commands, options and identifiers are not.
 */
function isRepoPath(span: string): boolean {
  if (span.startsWith('../') || !/^[\w.-]+(\/[\w.-]+)*\/?$/.test(span)) return false;
  return span.includes('/') || /\.(ts|tsx|js|json|md|graphql|go|yml|css)$/.test(span);
}

/** The named path that does not exist, or a trailing-slash folder that is not a folder. */
function missing(path: string): boolean {
  const at = ROOT + path;
  if (!existsSync(at)) return true;
  return path.endsWith('/') && !statSync(at).isDirectory();
}

/** The owner cells of the table under "## Where each rule lives". */
function ruleOwners(markdown: string): { rule: string; owner: string }[] {
  const section = markdown.split(/^## Where each rule lives$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2) // the header and its separator
    .map((line) => {
      const cells = line.split('|').map((c) => c.trim());
      return { rule: cells[1] ?? '', owner: cells[2] ?? '' };
    });
}

describe('ARCHITECTURE.md', () => {
  it('tells a path from other backticked names', () => {
    for (const path of ['src/respond/', 'src/domain/floor.ts', 'adapters/telegram/', 'eslint.config.js']) {
      expect(isRepoPath(path), path).toBe(true);
    }
    for (const other of [
      'respondToTurn',
      '../shared/SPEC.md',
      '/stop',
      '--role gateway|worker|api',
      'LLM_TIMEOUT_MS',
    ]) {
      expect(isRepoPath(other), other).toBe(false);
    }
  });

  it('names only paths that exist in the repository', () => {
    const named = [...new Set(backticked(MAP).filter(isRepoPath))];
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter(missing)).toEqual([]);
  });

  it('gives every rule an owning module that exists', () => {
    const rows = ruleOwners(MAP);
    expect(rows.length).toBeGreaterThan(20);
    const unowned = rows.filter(({ owner }) => !backticked(owner).some(isRepoPath)).map((r) => r.rule);
    expect(unowned).toEqual([]);
    const dead = rows.flatMap(({ owner }) => backticked(owner).filter(isRepoPath)).filter(missing);
    expect(dead).toEqual([]);
  });

  it('keeps its sections and stays short', () => {
    for (const heading of [
      "## Bird's-eye view",
      '## One message, end to end',
      '## Code map',
      '### Direction of dependencies', // named by eslint.config.js
      '## Where each rule lives',
      '## Glossary',
    ]) {
      expect(MAP.split('\n')).toContain(heading);
    }
    expect(MAP.match(/\n/g)?.length ?? 0).toBeLessThanOrEqual(MAX_LINES);
  });
});
