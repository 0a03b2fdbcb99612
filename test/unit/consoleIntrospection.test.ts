// The console's typed GraphQL (console/src/lib/graphql.ts) reads the schema from the committed
// introspection, console/src/graphql-env.d.ts: it must be what graphql/schema.graphql gives, or
// the console's types describe an older API than `gql-tada check` checks it against.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateOutput } from '@gql.tada/cli-utils';
import { afterAll, describe, expect, it } from 'vitest';

const CONSOLE_SRC = join(import.meta.dirname, '../../console/src');
const dir = mkdtempSync(join(tmpdir(), 'introspection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('console/src/graphql-env.d.ts', () => {
  it('matches graphql/schema.graphql (run `npm run schema` after changing the API)', async () => {
    const fresh = join(dir, 'graphql-env.d.ts');
    // The console's tsconfig names the schema; the output goes beside, not over, the committed file.
    await generateOutput({ tsconfig: join(CONSOLE_SRC, 'tsconfig.json'), output: fresh, silent: true });
    expect(readFileSync(join(CONSOLE_SRC, 'graphql-env.d.ts'), 'utf8')).toBe(readFileSync(fresh, 'utf8'));
  }, 30_000);
});
