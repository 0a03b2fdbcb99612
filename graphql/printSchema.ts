// Prints the schema the code builds to graphql/schema.graphql (`npm run schema`, which then
// regenerates the console's introspection from it, console/src/graphql-env.d.ts). Unit tests
// fail when either committed file differs, so the file is always the API's contract.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from './schema.js';

export const SCHEMA_FILE = fileURLToPath(new URL('./schema.graphql', import.meta.url));

export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
