// A query field that reads one record by id and answers the API's not-found error when there is
// none: the shape every `dialogue(id)`, `agent(id)`, `memory(id)` … field shares.
import type { ObjectRef } from '@pothos/core';
import { builder, type GraphQLContext } from './builder.js';
import { found } from './errors.js';

type Types = typeof builder.$inferSchemaTypes;

/** Declares `name(id: ID!): Type!` on Query; `what` names the record in the error (`no web user with id …`). */
export function recordById<T extends object>(
  name: string,
  type: ObjectRef<Types, T>,
  read: (ctx: GraphQLContext, id: string) => Promise<T | null | undefined>,
  what: string = name,
): void {
  // Widened to `object` for Pothos: its conditional result type cannot be checked against an
  // open T, and the record `read` returns is that type's shape all the same.
  const ref: ObjectRef<Types, object> = type;
  builder.queryField(name, (t) =>
    t.field({
      type: ref,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_root, { id }, ctx) => found(await read(ctx, String(id)), what, id),
    }),
  );
}
