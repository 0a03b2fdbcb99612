// Which kind of document an upload is, from what it is called AND what its bytes are (pure). The
// name or MIME type says what the uploader means; the bytes must agree: a PDF starts with
// `%PDF-`, text is valid UTF-8 without control characters. Anything else — a .docx, an image, a
// binary renamed .txt — is refused whole with a stable code, before anything is stored.
import { GatewayError } from '../errors.js';
import type { DocumentType } from '../domain/knowledge.js';

export interface DocumentLimits {
  /** Largest upload in bytes (KNOWLEDGE_MAX_BYTES). */
  maxBytes: number;
  /** Most chunks one document may make (KNOWLEDGE_MAX_CHUNKS). */
  maxChunks: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxBytes: 10 * 1024 * 1024, maxChunks: 2_000 };

/** What the name or MIME type claims: one of ours, something we refuse, or nothing said. */
type Declared = DocumentType | 'unsupported' | 'unknown';

const EXTENSIONS: Record<string, DocumentType> = {
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  pdf: 'pdf',
};
const MIMES: Record<string, DocumentType> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/pdf': 'pdf',
};
/** Say nothing about the content: the bytes decide. */
const VAGUE_MIMES = new Set(['application/octet-stream', 'binary/octet-stream', '']);

const bareMime = (mime: string | undefined) => (mime ?? '').split(';')[0]!.trim().toLowerCase();

/** The base name (no directories), trimmed. */
export function baseName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? '').trim();
}

function extensionOf(name: string): string | undefined {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : undefined;
}

/** The extension decides when there is one; else the MIME type; a vague type says nothing. */
function declaredType(name: string, mime: string | undefined): Declared {
  const ext = extensionOf(name);
  if (ext !== undefined) return EXTENSIONS[ext] ?? 'unsupported';
  const m = bareMime(mime);
  if (VAGUE_MIMES.has(m)) return 'unknown';
  return MIMES[m] ?? 'unsupported';
}

const startsWith = (bytes: Uint8Array, prefix: number[]) =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const PDF_MAGIC = ascii('%PDF-');
/** Formats people upload by mistake, named so the refusal can say what the file is. */
const KNOWN_BINARIES: Array<{ what: string; magic: number[] }> = [
  { what: 'a ZIP container (Word, Excel, PowerPoint, EPUB…)', magic: [0x50, 0x4b, 0x03, 0x04] },
  { what: 'an old Office document', magic: [0xd0, 0xcf, 0x11, 0xe0] },
  { what: 'a PNG image', magic: [0x89, 0x50, 0x4e, 0x47] },
  { what: 'a JPEG image', magic: [0xff, 0xd8, 0xff] },
  { what: 'a GIF image', magic: ascii('GIF8') },
  { what: 'a RTF document', magic: ascii('{\\rtf') },
];

export const isPdf = (bytes: Uint8Array): boolean => startsWith(bytes, PDF_MAGIC);

/** Decodes UTF-8 text (a leading BOM dropped); undefined when the bytes are not text. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // Control characters other than tab, newlines and form feed never occur in a text file.
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/** What the bytes are, as far as intake cares. */
function sniff(bytes: Uint8Array): { kind: 'pdf' } | { kind: 'text' } | { kind: 'binary'; what: string } {
  if (isPdf(bytes)) return { kind: 'pdf' };
  const known = KNOWN_BINARIES.find((b) => startsWith(bytes, b.magic));
  if (known) return { kind: 'binary', what: known.what };
  if (utf8Text(bytes) !== undefined) return { kind: 'text' };
  return { kind: 'binary', what: 'not UTF-8 text' };
}

const unsupported = (message: string) => new GatewayError('DOCUMENT_TYPE_UNSUPPORTED', message);

/**
 * The document's type, or a GatewayError: DOCUMENT_EMPTY (no bytes), DOCUMENT_TOO_LARGE,
 * DOCUMENT_TYPE_UNSUPPORTED (a type we do not read, or bytes that are not what the name says),
 * DOCUMENT_MALFORMED (named .pdf but not a PDF).
 */
export function detectDocumentType(
  o: { name: string; mime?: string; bytes: Uint8Array },
  limits: Pick<DocumentLimits, 'maxBytes'>,
): DocumentType {
  if (o.bytes.length === 0) throw new GatewayError('DOCUMENT_EMPTY', `${o.name} is empty`);
  if (o.bytes.length > limits.maxBytes)
    throw new GatewayError(
      'DOCUMENT_TOO_LARGE',
      `${o.name} has ${o.bytes.length} bytes; the limit is ${limits.maxBytes}`,
    );
  const declared = declaredType(o.name, o.mime);
  if (declared === 'unsupported')
    throw unsupported(`${o.name}: only .txt, .md and .pdf documents are read (got ${o.mime || 'this extension'})`);
  const seen = sniff(o.bytes);
  if (declared === 'pdf') {
    if (seen.kind === 'pdf') return 'pdf';
    throw new GatewayError('DOCUMENT_MALFORMED', `${o.name} is named as a PDF but does not start with %PDF-`);
  }
  if (seen.kind === 'pdf') {
    if (declared === 'unknown') return 'pdf';
    throw unsupported(`${o.name} is a PDF, not ${declared}; upload it with a .pdf name`);
  }
  if (seen.kind === 'binary')
    throw unsupported(`${o.name} is ${seen.what}; only UTF-8 text, Markdown and PDF are read`);
  return declared === 'unknown' ? 'text' : declared;
}
