// The key that signs export download links. Every API process of a deployment must hold the
// same one (a link made by one process is fetched from any), so a key made per process start
// will not do. EXPORT_LINK_SECRET when set; otherwise one derived from the deployment's
// operator and admin tokens, which every API process is given alike (in development with no
// OPS_TOKENS, that is the admin token kept in .local/admin-token, app/devAdminToken.ts).
// Only tokens that may export count: a viewer token's holder cannot forge a link.
import { createHmac } from 'node:crypto';
import { roleAtLeast } from '../auth/opsTokens.js';
import type { Env } from '../config/env.js';

/** Names what the derived key is for, so the same tokens give no other key of ours. */
const PURPOSE = 'rainbow-gateway export download links v1';

/** The signing key, or undefined when there is no secret to sign with (no links are offered then). */
export function exportLinkKey(env: Pick<Env, 'EXPORT_LINK_SECRET' | 'OPS_TOKENS'>): Buffer | undefined {
  if (env.EXPORT_LINK_SECRET) return Buffer.from(env.EXPORT_LINK_SECRET, 'utf8');
  const tokens = env.OPS_TOKENS.filter((t) => roleAtLeast(t.role, 'operator'))
    .map((t) => t.token)
    .sort();
  if (tokens.length === 0) return undefined;
  // Sorted, so the order of OPS_TOKENS' entries does not matter; any other change to them
  // invalidates the links out (they live minutes).
  return createHmac('sha256', tokens.join('\n')).update(PURPOSE).digest();
}
