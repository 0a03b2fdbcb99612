// Export download links (GET /exports/<token>): a self-contained token, so no process has to
// store anything and any API process can serve any link. The token is
// `base64url(JSON claims) "." base64url(HMAC-SHA256(key, that first part))`. It names what to
// render, not the rendered bytes: the route renders the export again when it is fetched.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** Where the API's HTTP server serves the links; the token follows. */
export const EXPORT_LINK_PATH = '/exports/';

export interface ExportLinkClaims {
  dialogueId: string;
  format: 'markdown' | 'pdf';
  /** Rooms' exports leave invisible skips out (seed 002). */
  visibleOnly: boolean;
  /** The export's own time: rendering again at it gives the same document (header, PDF dates). */
  exportedAt: Date;
  expiresAt: Date;
}

export type ExportLinkCheck =
  { ok: true; claims: ExportLinkClaims } | { ok: false; code: 'EXPORT_LINK_INVALID' | 'EXPORT_LINK_EXPIRED' };

/** The claims as carried in the token: times in epoch milliseconds. */
const wireClaims = z
  .object({
    dialogueId: z.string().min(1).max(200),
    format: z.enum(['markdown', 'pdf']),
    visibleOnly: z.boolean(),
    exportedAt: z.number().int().nonnegative(),
    expiresAt: z.number().int().nonnegative(),
  })
  .strict();

const PART = /^[A-Za-z0-9_-]+$/;
const mac = (key: Uint8Array, payload: string): Buffer => createHmac('sha256', key).update(payload).digest();

export function signExportLink(claims: ExportLinkClaims, key: Uint8Array): string {
  const wire: z.infer<typeof wireClaims> = {
    dialogueId: claims.dialogueId,
    format: claims.format,
    visibleOnly: claims.visibleOnly,
    exportedAt: claims.exportedAt.getTime(),
    expiresAt: claims.expiresAt.getTime(),
  };
  const payload = Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * The token's claims if this key signed it and it has not expired at `now`. The signature is
 * checked before anything in the payload is believed, so a link whose expiry was edited is
 * invalid, never merely expired.
 */
export function verifyExportLink(token: string, key: Uint8Array, now: Date): ExportLinkCheck {
  const invalid = { ok: false, code: 'EXPORT_LINK_INVALID' } as const;
  const parts = token.split('.');
  if (parts.length !== 2) return invalid;
  const [payload, signature] = parts as [string, string];
  if (!PART.test(payload) || !PART.test(signature)) return invalid;
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  // One spelling per signature: trailing bits that base64url decoding ignores are refused too.
  if (given.length !== expected.length || given.toString('base64url') !== signature) return invalid;
  if (!timingSafeEqual(given, expected)) return invalid;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return invalid;
  }
  const wire = wireClaims.safeParse(parsed);
  if (!wire.success) return invalid;
  if (now.getTime() >= wire.data.expiresAt) return { ok: false, code: 'EXPORT_LINK_EXPIRED' };
  return {
    ok: true,
    claims: {
      ...wire.data,
      exportedAt: new Date(wire.data.exportedAt),
      expiresAt: new Date(wire.data.expiresAt),
    },
  };
}
