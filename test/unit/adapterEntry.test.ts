// One entry per adapter (ARCHITECTURE.md, "The edges"): code outside an adapter's folder reaches
// it only through adapters/<name>/index.ts, and the platform-free layers (src/, graphql/) do not
// import adapters/ at all. Plain regexes over the source text, so a new file is checked unasked.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHECKED = ['app', 'graphql', 'jobs', 'src'];
/** Layers that must not know adapters/ exists. */
const ADAPTER_FREE = ['graphql/', 'src/'];

/** Every specifier of `import … from`, `export … from`, `import '…'` and `import('…')`. */
export function importsOf(source: string): string[] {
  const pattern = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;
  return [...source.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? '');
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Why `file` may not import `target` (both repository-relative), or undefined when it may. */
export function violation(file: string, target: string): string | undefined {
  if (!target.startsWith('adapters/')) return undefined;
  if (ADAPTER_FREE.some((layer) => file.startsWith(layer))) return 'imports adapters/ (the layer is platform-free)';
  const parts = target.split('/');
  // A shared file of adapters/ itself (adapters/platforms.ts): the composition root's to use.
  if (parts.length === 2) return file.startsWith('app/') ? undefined : 'imports a shared adapters/ file outside app/';
  if (parts.length === 3 && /^index\.[jt]s$/.test(parts[2] ?? '')) return undefined;
  return `imports inside ${parts.slice(0, 2).join('/')}/ instead of its index.ts`;
}

function violations(): string[] {
  return CHECKED.flatMap(tsFiles).flatMap((file) =>
    importsOf(readFileSync(join(ROOT, file), 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) =>
        relative(ROOT, resolve(ROOT, dirname(file), spec))
          .split('\\')
          .join('/'),
      )
      .flatMap((target) => {
        const why = violation(file, target);
        return why ? [`${file} → ${target}: ${why}`] : [];
      }),
  );
}

describe('one entry per adapter', () => {
  it('reads every kind of import statement', () => {
    const source = [
      "import { a } from '../adapters/telegram/bot.js';",
      "import type { B } from './b.js';",
      'export { c } from "../c.js";',
      "import './side.js';",
      "const d = await import('../d.js');",
      'import {\n  e,\n  f,\n} from "../ef.js";',
    ].join('\n');
    expect(importsOf(source)).toEqual([
      '../adapters/telegram/bot.js',
      './b.js',
      '../c.js',
      './side.js',
      '../d.js',
      '../ef.js',
    ]);
  });

  it('tells an entry from an adapter internal', () => {
    expect(violation('app/x.ts', 'adapters/telegram/index.js')).toBeUndefined();
    expect(violation('app/x.ts', 'adapters/platforms.js')).toBeUndefined();
    expect(violation('app/x.ts', 'adapters/telegram/bot.js')).toBeDefined();
    expect(violation('jobs/x.ts', 'adapters/platforms.js')).toBeDefined();
    expect(violation('graphql/types/x.ts', 'adapters/web/index.js')).toBeDefined();
    expect(violation('src/x.ts', 'adapters/platforms.js')).toBeDefined();
  });

  it('finds the imports of the checked layers', () => {
    const files = CHECKED.flatMap(tsFiles);
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.startsWith('app/') && /\/adapters\//.test(readFileSync(join(ROOT, f), 'utf8')))).toBe(
      true,
    );
  });

  it('reaches adapters only through their index.ts, and never from src/ or graphql/', () => {
    expect(violations()).toEqual([]);
  });
});

describe('the registered adapters', () => {
  it('are the platforms the API names (src/domain/platformNames.ts)', async () => {
    const { ADAPTERS } = await import('../../app/platforms.js');
    const { PLATFORM_NAMES } = await import('../../src/domain/platformNames.js');
    expect(ADAPTERS.map((a) => a.platform.id)).toEqual([...PLATFORM_NAMES]);
  });
});
