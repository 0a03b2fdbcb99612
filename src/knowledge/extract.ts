// A document's text: UTF-8 decoded (text and Markdown) or read by unpdf (PDF.js, as src/media
// does), normalised so the chunker sees `\n` line ends and at most one blank line in a row.
// A PDF page becomes a paragraph break, so no chunk runs silently across pages' layout seams.
import { extractText as pdfPages } from 'unpdf';
import { GatewayError } from '../errors.js';
import type { DocumentType } from '../domain/knowledge.js';
import { utf8Text } from './intake.js';

export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

async function pdfText(bytes: Uint8Array, name: string): Promise<string> {
  let pages: string[];
  try {
    // A copy: PDF.js may transfer (detach) the buffer it is given.
    ({ text: pages } = await pdfPages(new Uint8Array(bytes), { mergePages: false }));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new GatewayError('DOCUMENT_MALFORMED', `${name}: the PDF could not be read (${why})`, { cause: err });
  }
  return pages.map((p) => p.trim()).join('\n\n');
}

/** The text to chunk, or a GatewayError (DOCUMENT_MALFORMED, DOCUMENT_TYPE_UNSUPPORTED, DOCUMENT_EMPTY). */
export async function extractDocumentText(type: DocumentType, bytes: Uint8Array, name: string): Promise<string> {
  let raw: string;
  if (type === 'pdf') raw = await pdfText(bytes, name);
  else {
    const decoded = utf8Text(bytes);
    if (decoded === undefined) throw new GatewayError('DOCUMENT_TYPE_UNSUPPORTED', `${name} is not UTF-8 text`);
    raw = decoded;
  }
  const text = normalizeText(raw);
  if (!text)
    throw new GatewayError(
      'DOCUMENT_EMPTY',
      type === 'pdf' ? `${name} has no text layer (a scan?); nothing to retrieve` : `${name} holds only whitespace`,
    );
  return text;
}
