// Bearer-token authentication against OPS_TOKENS (constant-time comparison) and the role order
// viewer < operator < admin that the schema's auth scopes check.
import { timingSafeEqual, createHash } from 'node:crypto';
import { OPS_ROLES, type OpsRole, type OpsToken } from '../config/env.js';
import { bearerToken } from './bearer.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function authenticate(header: string | null, tokens: OpsToken[]): OpsToken | null {
  const token = bearerToken(header);
  if (!token) return null;
  const given = digest(token);
  return tokens.find((t) => timingSafeEqual(digest(t.token), given)) ?? null;
}

/** OPS_ROLES is ordered from least to most trusted. */
export function roleAtLeast(role: OpsRole, needed: OpsRole): boolean {
  return OPS_ROLES.indexOf(role) >= OPS_ROLES.indexOf(needed);
}
