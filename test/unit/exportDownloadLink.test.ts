// Export download links as plain data: the signed token (src/export/downloadLink.ts), its key
// (src/export/linkKey.ts), its settings (src/config/env.ts) and the attachment header.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signExportLink,
  verifyExportLink,
  type ExportLinkClaims,
  type ExportLinkCheck,
} from '../../src/export/downloadLink.js';
import { exportLinkKey } from '../../src/export/linkKey.js';
import { attachmentDisposition } from '../../src/export/contentDisposition.js';
import { ConfigError, loadEnv, type OpsToken } from '../../src/config/env.js';
import { maskSecrets } from '../../src/log.js';

const KEY = Buffer.from('k'.repeat(32));
const T = new Date('2026-04-01T09:00:00.123Z');
const claims: ExportLinkClaims = {
  dialogueId: 'dlg_麻薯',
  format: 'pdf',
  visibleOnly: true,
  exportedAt: T,
  expiresAt: new Date(T.getTime() + 900_000),
};
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const code = (c: ExportLinkCheck) => (c.ok ? 'ok' : c.code);

describe('export download tokens', () => {
  const token = signExportLink(claims, KEY);

  it('give back exactly what was signed, until they expire', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyExportLink(token, KEY, T)).toEqual({ ok: true, claims });
    expect(code(verifyExportLink(token, KEY, new Date(claims.expiresAt.getTime() - 1)))).toBe('ok');
    expect(code(verifyExportLink(token, KEY, claims.expiresAt))).toBe('EXPORT_LINK_EXPIRED');
  });

  it('are refused when signed with another key, edited, or re-spelled', () => {
    expect(code(verifyExportLink(token, Buffer.from('j'.repeat(32)), T))).toBe('EXPORT_LINK_INVALID');
    const [payload, sig] = token.split('.') as [string, string];
    // A later expiry with the old signature is invalid, not "not yet expired".
    const longer = b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), expiresAt: 9e15 });
    expect(code(verifyExportLink(`${longer}.${sig}`, KEY, T))).toBe('EXPORT_LINK_INVALID');
    // The same edit on an expired link: still invalid, never 'expired'.
    expect(code(verifyExportLink(`${longer}.${sig}`, KEY, new Date(9e15)))).toBe('EXPORT_LINK_INVALID');
    const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
    expect(code(verifyExportLink(`${payload}.${flipped}`, KEY, T))).toBe('EXPORT_LINK_INVALID');
    // The last character carries 2 spare bits base64url decoding ignores: another spelling is refused.
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = sig.slice(0, -1) + ALPHABET[ALPHABET.indexOf(sig.at(-1)!) ^ 1]!;
    expect(Buffer.from(respelled, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    expect(code(verifyExportLink(`${payload}.${respelled}`, KEY, T))).toBe('EXPORT_LINK_INVALID');
  });

  it('never reach a log line whole', () => {
    const line = maskSecrets(`GET https://api.example/exports/${token} failed`);
    expect(line).not.toContain(token.split('.')[1]);
    expect(line).toContain('failed');
  });

  it('are refused when malformed, even when signed', () => {
    // Any payload signed the way the module signs, to reach the checks after the signature.
    const signed = (payload: string) => `${payload}.${createHmac('sha256', KEY).update(payload).digest('base64url')}`;
    for (const bad of ['', '.', 'abc', 'a.b.c', `${token}.x`, `${token.replace('.', '.+')}`, 'a b.c'])
      expect(code(verifyExportLink(bad, KEY, T)), bad).toBe('EXPORT_LINK_INVALID');
    const wire = { ...claims, exportedAt: T.getTime(), expiresAt: T.getTime() + 1000 };
    for (const payload of [
      Buffer.from('not json').toString('base64url'),
      b64({ ...wire, format: 'docx' }),
      b64({ ...wire, visibleOnly: 'yes' }),
      b64({ ...wire, extra: 1 }),
      b64({ ...wire, dialogueId: '' }),
      b64([wire]),
    ])
      expect(code(verifyExportLink(signed(payload), KEY, T)), payload).toBe('EXPORT_LINK_INVALID');
    expect(code(verifyExportLink(signed(b64(wire)), KEY, T))).toBe('ok');
  });
});

describe('the signing key', () => {
  const tok = (role: OpsToken['role'], token: string): OpsToken => ({ name: token.slice(0, 4), role, token });
  const admin = tok('admin', 'admin-token-0123456789');
  const op = tok('operator', 'operator-token-0123456789');
  const viewer = tok('viewer', 'viewer-token-0123456789');

  it('is EXPORT_LINK_SECRET when set', () => {
    const secret = 's'.repeat(40);
    expect(exportLinkKey({ EXPORT_LINK_SECRET: secret, OPS_TOKENS: [admin] })).toEqual(Buffer.from(secret));
  });

  it('else derives from the tokens that may export, whatever their order', () => {
    const key = exportLinkKey({ EXPORT_LINK_SECRET: undefined, OPS_TOKENS: [admin, op, viewer] });
    expect(key).toHaveLength(32);
    expect(exportLinkKey({ EXPORT_LINK_SECRET: undefined, OPS_TOKENS: [viewer, op, admin] })).toEqual(key);
    // A viewer's token does not count: changing it keeps the key; changing an operator's does not.
    expect(
      exportLinkKey({ EXPORT_LINK_SECRET: undefined, OPS_TOKENS: [admin, op, tok('viewer', 'other-viewer-012345')] }),
    ).toEqual(key);
    expect(exportLinkKey({ EXPORT_LINK_SECRET: undefined, OPS_TOKENS: [admin] })).not.toEqual(key);
    // Not a token itself: the key is no operator's bearer token.
    expect(key!.toString('utf8')).not.toContain(admin.token);
  });

  it('is absent with no secret and no operator token (a viewer alone could otherwise forge links)', () => {
    expect(exportLinkKey({ EXPORT_LINK_SECRET: undefined, OPS_TOKENS: [viewer] })).toBeUndefined();
    expect(exportLinkKey({ EXPORT_LINK_SECRET: undefined, OPS_TOKENS: [] })).toBeUndefined();
  });
});

describe('export link settings', () => {
  it('default to a 900 s link and no secret', () => {
    const env = loadEnv({});
    expect(env.EXPORT_LINK_TTL_SECONDS).toBe(900);
    expect(env.EXPORT_LINK_SECRET).toBeUndefined();
    expect(loadEnv({ EXPORT_LINK_TTL_SECONDS: '30', EXPORT_LINK_SECRET: 'x'.repeat(32) })).toMatchObject({
      EXPORT_LINK_TTL_SECONDS: 30,
      EXPORT_LINK_SECRET: 'x'.repeat(32),
    });
  });

  it('refuse a short secret and a TTL out of range, without echoing the secret', () => {
    const short = 'short-secret-value';
    expect(() => loadEnv({ EXPORT_LINK_SECRET: short })).toThrow(ConfigError);
    expect(() => loadEnv({ EXPORT_LINK_SECRET: short })).toThrow(/EXPORT_LINK_SECRET: must be at least 32/);
    expect(() => loadEnv({ EXPORT_LINK_SECRET: short })).not.toThrow(new RegExp(short));
    for (const ttl of ['29', '86401', '1.5', 'soon'])
      expect(() => loadEnv({ EXPORT_LINK_TTL_SECONDS: ttl }), ttl).toThrow(/EXPORT_LINK_TTL_SECONDS/);
  });
});

describe('Content-Disposition', () => {
  it('names a Chinese file in UTF-8, with an ASCII fallback', () => {
    expect(attachmentDisposition('dialogue-dlg_x-2026-04-01.md')).toBe(
      `attachment; filename="dialogue-dlg_x-2026-04-01.md"; filename*=UTF-8''dialogue-dlg_x-2026-04-01.md`,
    );
    const h = attachmentDisposition('麻薯的对话 (1).pdf');
    expect(h).toBe(
      `attachment; filename="_____ (1).pdf"; filename*=UTF-8''%E9%BA%BB%E8%96%AF%E7%9A%84%E5%AF%B9%E8%AF%9D%20%281%29.pdf`,
    );
    expect(decodeURIComponent(h.split("UTF-8''")[1]!)).toBe('麻薯的对话 (1).pdf');
    expect(attachmentDisposition('a"b\\c\r\n.md')).toContain('filename="a_b_c__.md"');
  });
});
