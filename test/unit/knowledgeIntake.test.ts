import { describe, expect, it } from 'vitest';
import { detectDocumentType } from '../../src/knowledge/intake.js';
import { extractDocumentText } from '../../src/knowledge/extract.js';
import { isGatewayError } from '../../src/errors.js';

const limits = { maxBytes: 1024 };
const utf8 = (s: string) => new TextEncoder().encode(s);
const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    return isGatewayError(err) ? err.code : `not a GatewayError: ${String(err)}`;
  }
  return undefined;
};

describe('detectDocumentType', () => {
  it('reads .txt, .md and .pdf when the bytes agree', () => {
    expect(detectDocumentType({ name: 'notes.txt', bytes: utf8('hello') }, limits)).toBe('text');
    expect(detectDocumentType({ name: 'README.md', bytes: utf8('# Hi') }, limits)).toBe('markdown');
    expect(detectDocumentType({ name: 'a.markdown', bytes: utf8('x') }, limits)).toBe('markdown');
    expect(detectDocumentType({ name: 'h.pdf', bytes: utf8('%PDF-1.7\n...') }, limits)).toBe('pdf');
    expect(detectDocumentType({ name: '合同.PDF', bytes: utf8('%PDF-1.4') }, limits)).toBe('pdf');
  });

  it('without an extension the MIME type decides, and a vague one leaves it to the bytes', () => {
    expect(detectDocumentType({ name: 'notes', mime: 'text/markdown', bytes: utf8('x') }, limits)).toBe('markdown');
    expect(
      detectDocumentType({ name: 'blob', mime: 'application/octet-stream', bytes: utf8('%PDF-1.5') }, limits),
    ).toBe('pdf');
    expect(detectDocumentType({ name: 'blob', bytes: utf8('plain words') }, limits)).toBe('text');
  });

  it('refuses types it does not read, and bytes that are not what the name says', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]);
    const binary = new Uint8Array([0x00, 0xff, 0xfe, 0x10, 0x80, 0x81]);
    expect(codeOf(() => detectDocumentType({ name: 'report.docx', bytes: zip }, limits))).toBe(
      'DOCUMENT_TYPE_UNSUPPORTED',
    );
    expect(codeOf(() => detectDocumentType({ name: 'photo.png', mime: 'image/png', bytes: png }, limits))).toBe(
      'DOCUMENT_TYPE_UNSUPPORTED',
    );
    expect(codeOf(() => detectDocumentType({ name: 'x', mime: 'image/png', bytes: png }, limits))).toBe(
      'DOCUMENT_TYPE_UNSUPPORTED',
    );
    expect(codeOf(() => detectDocumentType({ name: 'renamed.txt', bytes: binary }, limits))).toBe(
      'DOCUMENT_TYPE_UNSUPPORTED',
    );
    expect(codeOf(() => detectDocumentType({ name: 'renamed.txt', bytes: zip }, limits))).toBe(
      'DOCUMENT_TYPE_UNSUPPORTED',
    );
    expect(codeOf(() => detectDocumentType({ name: 'a.pdf.txt', bytes: utf8('%PDF-1.7') }, limits))).toBe(
      'DOCUMENT_TYPE_UNSUPPORTED',
    );
    // Latin-1 is not UTF-8.
    expect(
      codeOf(() => detectDocumentType({ name: 'old.txt', bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9]) }, limits)),
    ).toBe('DOCUMENT_TYPE_UNSUPPORTED');
  });

  it('says MALFORMED for a .pdf that is not a PDF, EMPTY for no bytes, TOO_LARGE over the limit', () => {
    expect(codeOf(() => detectDocumentType({ name: 'fake.pdf', bytes: utf8('hello') }, limits))).toBe(
      'DOCUMENT_MALFORMED',
    );
    expect(codeOf(() => detectDocumentType({ name: 'e.txt', bytes: new Uint8Array() }, limits))).toBe('DOCUMENT_EMPTY');
    expect(codeOf(() => detectDocumentType({ name: 'big.txt', bytes: new Uint8Array(1025).fill(65) }, limits))).toBe(
      'DOCUMENT_TOO_LARGE',
    );
  });
});

describe('extractDocumentText', () => {
  it('normalises line ends and blank lines; drops a BOM', async () => {
    const text = await extractDocumentText('text', utf8('\ufeffa  \r\nb\r\n\r\n\r\n\r\nc'), 'x.txt');
    expect(text).toBe('a\nb\n\nc');
  });

  it('refuses whitespace only, and a broken PDF', async () => {
    await expect(extractDocumentText('text', utf8(' \n\t\n'), 'x.txt')).rejects.toMatchObject({
      code: 'DOCUMENT_EMPTY',
    });
    await expect(extractDocumentText('pdf', utf8('%PDF-1.7\ngarbage'), 'x.pdf')).rejects.toMatchObject({
      code: 'DOCUMENT_MALFORMED',
    });
  });
});
