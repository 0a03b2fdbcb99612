// The Pothos schema builder: plain TypeScript types in, GraphQL schema out (SPEC §10).
// Plugins at the edges: scope-auth first (no resolver runs before its check), then relay
// connections and dataloader-backed objects.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import RelayPlugin from '@pothos/plugin-relay';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import type { GraphQLContext } from './context.js';
import { roleAtLeast } from '../src/auth/opsTokens.js';
import { apiError } from './errors.js';

export type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { viewer: boolean; operator: boolean; admin: boolean };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  // Non-null unless a field says otherwise: clients get precise types, and a resolver that
  // could return null must declare it (TypeScript checks).
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, RelayPlugin, DataloaderPlugin],
  scopeAuth: {
    // Subscriptions are checked when they start, not per event.
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      viewer: roleAtLeast(ctx.viewer.role, 'viewer'),
      operator: roleAtLeast(ctx.viewer.role, 'operator'),
      admin: roleAtLeast(ctx.viewer.role, 'admin'),
    }),
    unauthorizedError: (_parent, ctx, info) =>
      apiError('FORBIDDEN', `the ${ctx.viewer.role} role may not use ${info.parentType.name}.${info.fieldName}`),
  },
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
    if (typeof v !== 'string' || Number.isNaN(d.getTime()))
      throw apiError('BAD_REQUEST', 'DateTime must be an ISO 8601 string');
    return d;
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON (event payloads, content metadata).',
  serialize: (v) => v,
  parseValue: (v) => v,
});

// Every query field needs at least the viewer role; mutations need operator unless a field
// asks for admin.
builder.queryType({ authScopes: { viewer: true } });
builder.mutationType({ authScopes: { operator: true } });
