// Bearer-token authentication against OPS_TOKENS (constant-time comparison).
import { timingSafeEqual, createHash } from 'node:crypto';
import type { OpsToken } from '../src/config/env.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function authenticate(header: string | null, tokens: OpsToken[]): OpsToken | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!m?.[1]) return null;
  const given = digest(m[1]);
  return tokens.find((t) => timingSafeEqual(digest(t.token), given)) ?? null;
}
