// The newcomer path (SPEC §12): in development, a gateway started with no operator token makes
// one admin token on its first start, keeps it under .local/ (readable by this user only) and
// reuses it afterwards, so the console opens with one click, as notebook servers do. In
// production nothing is made: the API refuses every request until OPS_TOKENS is set.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Env, OpsToken } from '../src/config/env.js';

export const DEV_ADMIN_NAME = 'local-admin';

/** The token kept in `file` (made on first use); only in development with no token configured. */
export function devAdminToken(env: Pick<Env, 'NODE_ENV' | 'OPS_TOKENS'>, file: string): OpsToken | undefined {
  if (env.NODE_ENV !== 'development' || env.OPS_TOKENS.length > 0) return undefined;
  let token = '';
  try {
    token = readFileSync(file, 'utf8').trim();
  } catch {
    // first start: made below
  }
  if (!/^[A-Za-z0-9_-]{32,}$/.test(token)) {
    token = randomBytes(24).toString('base64url');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
  }
  return { name: DEV_ADMIN_NAME, role: 'admin', token };
}

/** What the terminal shows (never the log): where the console is, with the token to open it. */
export const consoleInvite = (url: string, token: OpsToken, file: string) =>
  `\n  Console: ${url}/#token=${token.token}\n  (an admin token made for local use, kept in ${file}; set OPS_TOKENS to use your own)\n\n`;
