// The Pothos schema builder: plain TypeScript types in, GraphQL schema out (SPEC §10).
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import type { Store } from '../src/store/store.js';
import type { OpsToken } from '../src/config/env.js';

export interface GraphQLContext {
  store: Store;
  /** The authenticated operator; requests without a valid token never reach a resolver. */
  viewer: OpsToken;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  plugins: [RelayPlugin],
  relay: {
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
  },
});

builder.scalarType('DateTime', {
  description: 'An instant in UTC, ISO 8601.',
  serialize: (d) => d.toISOString(),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime())) throw new TypeError('DateTime must be an ISO 8601 string');
    return d;
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON (event payloads, content metadata).',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({});
