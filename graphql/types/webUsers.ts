// People of the web channel (SPEC §12): operators issue each a bearer token, shown once.
import { builder } from '../builder.js';
import type { WebUser } from '../../src/store/webUsers.js';
import { parseInput } from '../../src/ops/input.js';
import { found } from '../errors.js';
import { z } from 'zod';

const WebUserType = builder.objectRef<WebUser>('WebUser').implement({
  description: 'A person who uses the web channel with a token an operator issued.',
  fields: (t) => ({
    id: t.exposeID('_id'),
    name: t.exposeString('name'),
    issuedBy: t.exposeString('issuedBy'),
    revoked: t.boolean({ resolve: (u) => u.revokedAt !== undefined }),
    createdAt: t.field({ type: 'DateTime', resolve: (u) => u.createdAt }),
  }),
});

const IssuedWebTokenType = builder.objectRef<{ user: WebUser; token: string }>('IssuedWebToken').implement({
  fields: (t) => ({
    user: t.field({ type: WebUserType, resolve: (r) => r.user }),
    token: t.exposeString('token', {
      description: 'The bearer token for /api. Shown only here: it is stored hashed.',
    }),
  }),
});

const LIST_LIMIT = 500;

builder.queryFields((t) => ({
  webUsers: t.field({
    type: [WebUserType],
    authScopes: { operator: true },
    description: 'Web-channel users, newest first.',
    resolve: (_r, _a, ctx) => ctx.store.webUsers.list(LIST_LIMIT),
  }),
}));

builder.mutationFields((t) => ({
  issueWebToken: t.field({
    type: IssuedWebTokenType,
    authScopes: { operator: true },
    description: 'A new web-channel user and their token (shown once).',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => {
      const { name } = parseInput(z.object({ name: z.string().trim().min(1).max(100) }), { name: a.name });
      return ctx.store.webUsers.issue({ name, issuedBy: ctx.viewer.name, at: new Date() });
    },
  }),
  reissueWebToken: t.field({
    type: IssuedWebTokenType,
    authScopes: { operator: true },
    description: 'A new token for a web user; the old one stops working.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => found(await ctx.store.webUsers.reissue(String(a.id), new Date()), 'web user', a.id),
  }),
  revokeWebToken: t.field({
    type: WebUserType,
    authScopes: { operator: true },
    description: 'The web user can no longer sign in (their conversations stay).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => found(await ctx.store.webUsers.revoke(String(a.id), new Date()), 'web user', a.id),
  }),
}));
