// Every GraphQL document the console sends (its `graphql(`…`)` calls) passes the API's own
// validation, query limits included: `gql-tada check` knows the schema but not graphql-armor's
// depth, alias and cost limits, and a fragment spread counts two levels of depth there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  parse,
  print,
  visit,
  type ASTNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type validate as graphqlValidate,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limitPlugins } from '../../graphql/limits.js';
import { schema } from '../../graphql/schema.js';

const CONSOLE_SRC = join(import.meta.dirname, '../../console/src');

/** The literal first argument of each `graphql(…)` call in the console's sources. */
function documentTexts(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const files = readdirSync(CONSOLE_SRC, { recursive: true, encoding: 'utf8' }).filter(
    (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'),
  );
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(CONSOLE_SRC, file), 'utf8'), ts.ScriptTarget.Latest);
    const visit = (n: ts.Node): void => {
      const arg = ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'graphql';
      const first = arg ? n.arguments[0] : undefined;
      if (first && ts.isNoSubstitutionTemplateLiteral(first)) out.push({ file, text: first.text });
      ts.forEachChild(n, visit);
    };
    visit(source);
  }
  return out;
}

/** The fragments an operation spreads, directly or through other fragments. */
function spreadIn(
  node: ASTNode,
  fragments: Map<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): FragmentDefinitionNode[] {
  visit(node, {
    FragmentSpread(spread) {
      if (seen.has(spread.name.value)) return;
      seen.add(spread.name.value);
      const f = fragments.get(spread.name.value);
      if (f) spreadIn(f, fragments, seen);
    },
  });
  return [...seen].flatMap((name) => fragments.get(name) ?? []);
}

describe('the console’s GraphQL documents', () => {
  const definitions = documentTexts().flatMap(({ file, text }) =>
    parse(text).definitions.map((definition) => ({ file, definition })),
  );
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { definition: d } of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operations = definitions.filter((d) => d.definition.kind === Kind.OPERATION_DEFINITION);
  const yoga = createYoga({ schema, plugins: limitPlugins(DEFAULT_LIMITS, { introspection: true }) });

  it('are found', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it('pass the API’s validation and query limits', () => {
    // The served schema and validation with the limits' rules (envelop types them loosely).
    const { validate, schema: served } = yoga.getEnveloped({}) as {
      validate: typeof graphqlValidate;
      schema: GraphQLSchema;
    };
    const failures = operations.flatMap(({ file, definition }) => {
      const document = parse([definition, ...spreadIn(definition, fragments)].map((d) => print(d)).join('\n'));
      try {
        return validate(served, document).map((e) => `${file}: ${e.message}`);
      } catch (e) {
        // A limit's rejection is thrown (propagateOnRejection), not listed.
        return [`${file}: ${e instanceof Error ? e.message : String(e)}`];
      }
    });
    expect(failures).toEqual([]);
  });
});
