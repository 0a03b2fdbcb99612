// Who is calling the web API: a web user by the token an operator issued them, or an operator
// by their OPS_TOKENS token (operators chat as themselves). Either is one platform identity on
// `web`, so a person is one Human there whatever conversation they open.
import type { FastifyRequest } from 'fastify';
import type { OpsRole, OpsToken } from '../../src/config/env.js';
import { GatewayError } from '../../src/errors.js';
import type { PlatformIdentity } from '../../src/domain/model.js';
import { authenticate } from '../../src/auth/opsTokens.js';
import { bearerToken } from '../../src/auth/bearer.js';
import type { WebUserRepo } from '../../src/store/webUsers.js';
import { WEB_PLATFORM } from './platform.js';

export interface WebCaller {
  identity: PlatformIdentity;
  /** Operators' role; web users may chat, read and delete their own conversations. */
  role: OpsRole | 'web_user';
}

export async function webCaller(
  header: string | undefined,
  o: { opsTokens: OpsToken[]; webUsers: Pick<WebUserRepo, 'byToken'> },
): Promise<WebCaller | null> {
  const op = authenticate(header ?? null, o.opsTokens);
  if (op) return { identity: { platform: WEB_PLATFORM, userId: `op:${op.name}`, displayName: op.name }, role: op.role };
  const token = bearerToken(header);
  const user = token ? await o.webUsers.byToken(token) : null;
  return user
    ? { identity: { platform: WEB_PLATFORM, userId: user._id, displayName: user.name }, role: 'web_user' }
    : null;
}

/** What a route needs: anyone signed in reads; `talk`: not a viewer; `operate`: an operator or admin. */
export type Need = 'read' | 'talk' | 'operate';

export interface CallerSource {
  opsTokens: OpsToken[];
  webUsers: Pick<WebUserRepo, 'byToken'>;
}

/** The caller of a request, or UNAUTHENTICATED / FORBIDDEN. */
export async function requireCaller(req: FastifyRequest, o: CallerSource, need: Need): Promise<WebCaller> {
  const caller = await webCaller(req.headers.authorization, o);
  if (!caller) throw new GatewayError('UNAUTHENTICATED', 'a valid bearer token is required (Authorization: Bearer …)');
  if (need === 'talk' && caller.role === 'viewer')
    throw new GatewayError('FORBIDDEN', 'a viewer token cannot change anything');
  if (need === 'operate' && caller.role !== 'operator' && caller.role !== 'admin')
    throw new GatewayError('FORBIDDEN', 'only operators manage agents’ documents');
  return caller;
}
