// The console's typed GraphQL documents: `graphql(`…`)` parses a query against the schema's
// introspection (../graphql-env.d.ts, generated from graphql/schema.graphql by `npm run schema`),
// so a document's result and variables types come from the schema, and `gql-tada check` (in
// `npm run typecheck`) rejects a field or argument the schema lacks.
import { initGraphQLTada, parse, type TadaDocumentNode } from 'gql.tada';
import type { introspection } from '../graphql-env.d.ts';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  // Custom scalars as they arrive in JSON: DateTime is serialised as an ISO 8601 string; JSON
  // is any JSON value, left `unknown` so a reader narrows it before use.
  scalars: { DateTime: string; JSON: unknown };
  // A fragment's fields are read straight off the result (no readFragment unmasking): lists
  // mix results of several documents (a live message replaces a loaded one), so the shapes stay plain.
  disableMasking: true;
}>();

export type { FragmentOf, ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';

/**
 * A query built at run time from the API's own data (the config page asks for the fields
 * `configFields` lists), so neither the types nor `gql-tada check` can read it: the caller states
 * the result it reads, and checks every value it takes from it.
 */
export function runtimeQuery<Result>(source: string): TadaDocumentNode<Result, Record<string, never>> {
  // The type-level parser needs a literal (it reads nothing from a `string`): the caller's Result
  // stands in for the answer.
  const document: unknown = parse(source);
  return document as TadaDocumentNode<Result, Record<string, never>>;
}
