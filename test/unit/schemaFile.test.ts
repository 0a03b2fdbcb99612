// The committed schema is the API's contract: it must be exactly what the code builds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../../graphql/printSchema.js';

describe('graphql/schema.graphql', () => {
  it('matches the schema built from the code (run `npm run schema` after changing the API)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
  });
});
