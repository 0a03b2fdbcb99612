// The floors of src/ (ARCHITECTURE.md, "Floors"): a folder imports only from its own floor or
// below, and no set of folders imports each other round in a circle. Type-only imports count:
// a type that must be read upstairs is still a dependency on upstairs.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Lowest first. `.` is the files directly in src/ (errors, log, networkErrors, transientRetry). */
const FLOORS: readonly (readonly string[])[] = [
  ['.', 'config', 'feed', 'i18n', 'domain', 'llm', 'query', 'auth'],
  ['metrics', 'platforms', 'search', 'stats', 'tone', 'transcript', 'store'],
  ['delivery', 'export', 'health', 'media', 'memory', 'tools', 'trace', 'budget', 'moderation'],
  ['knowledge', 'summary', 'persona', 'reflection'],
  ['context', 'lifecycle'],
  ['ops', 'rooms'],
  ['ingest', 'respond'],
  ['inbound'],
];

interface Import {
  file: string;
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? (parts[0] ?? '.') : '.';
}

/** Every relative import or re-export (static or dynamic) that lands in another folder of src/. */
function crossFolderImports(): Import[] {
  return sourceFiles(SRC).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)];
    return specs
      .map((m) => resolve(dirname(file), m[1] ?? ''))
      .filter((target) => target.startsWith(SRC))
      .map((target) => ({ file: relative(SRC, file), from: folderOf(file), to: folderOf(target) }))
      .filter((i) => i.from !== i.to);
  });
}

function floorOf(folder: string): number {
  return FLOORS.findIndex((floor) => floor.includes(folder));
}

/** Folders that reach themselves again by following imports (Tarjan's strongly connected sets). */
function cycles(imports: readonly Import[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const i of imports) next.set(i.from, (next.get(i.from) ?? new Set()).add(i.to));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const set = stack.splice(stack.indexOf(v));
    if (set.length > 1) found.push(set.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the floors of src/', () => {
  const imports = crossFolderImports();

  it('reads the imports (the check is not vacuous)', () => {
    expect(imports.length).toBeGreaterThan(200);
    expect(imports).toContainEqual({ file: join('respond', 'respondToTurn.ts'), from: 'respond', to: 'context' });
  });

  it('places every folder of src/ on a floor', () => {
    const folders = new Set(imports.flatMap((i) => [i.from, i.to]));
    expect([...folders].filter((f) => floorOf(f) < 0)).toEqual([]);
  });

  it('imports nothing from a higher floor', () => {
    const upward = imports.filter((i) => floorOf(i.to) > floorOf(i.from));
    expect(upward.map((i) => `${i.file} -> ${i.to}/`)).toEqual([]);
  });

  it('has no folders importing each other in a circle', () => {
    expect(cycles(imports)).toEqual([]);
  });

  it('would see an upward import and a circle', () => {
    const planted = [
      { file: 'memory/x.ts', from: 'memory', to: 'context' },
      { file: 'context/y.ts', from: 'context', to: 'memory' },
    ];
    expect(planted.filter((i) => floorOf(i.to) > floorOf(i.from))).toHaveLength(1);
    expect(cycles(planted)).toEqual([['context', 'memory']]);
  });
});
