// `Content-Disposition: attachment` for a file name in any script (RFC 6266): `filename*` in
// UTF-8 (RFC 8187) for every browser of today, and a plain-ASCII `filename` beside it for
// clients that read only that one.

/** RFC 8187's attr-char set: encodeURIComponent leaves a few more characters bare than it allows. */
const encodeExtValue = (s: string): string =>
  encodeURIComponent(s).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function attachmentDisposition(fileName: string): string {
  // Quotes, backslashes, controls and anything outside printable ASCII become `_` in the fallback.
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(fileName)}`;
}
