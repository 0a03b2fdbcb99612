// Documents → text: plain text and Markdown are decoded, PDFs go through unpdf (PDF.js).
// The text is capped at DOCUMENT_MAX_CHARS with a visible marker, so the context says that
// it holds only the beginning of the file.
import { extractText } from 'unpdf';
import type { DocumentReader } from './formats.js';
import { MediaError, describeError } from './errors.js';

/** Cuts `text` to `max` characters (code points, so no emoji or CJK is split) with a marker. */
export function truncateText(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('').trimEnd()}\n[… truncated: first ${max} of ${chars.length} characters]`;
}

/** Decodes a text file: UTF-8 unless a UTF-16 byte-order mark says otherwise. */
export function decodeText(data: Buffer): string {
  let text: string;
  if (data[0] === 0xff && data[1] === 0xfe) text = new TextDecoder('utf-16le').decode(data.subarray(2));
  else if (data[0] === 0xfe && data[1] === 0xff) text = new TextDecoder('utf-16be').decode(data.subarray(2));
  else text = new TextDecoder('utf-8').decode(data); // drops a UTF-8 BOM itself
  // A NUL is never in a text file; this is a binary file under a text name.
  if (text.includes('\u0000')) throw new MediaError('DOCUMENT_UNREADABLE', 'the file is not text');
  return text;
}

const normalise = (text: string): string =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

async function pdfText(data: Buffer): Promise<string> {
  try {
    // A copy: PDF.js may transfer (detach) the buffer it is given.
    const { text } = await extractText(new Uint8Array(data), { mergePages: true });
    return text;
  } catch (err) {
    throw new MediaError('DOCUMENT_UNREADABLE', `the PDF could not be read: ${describeError(err)}`, { cause: err });
  }
}

export async function readDocument(reader: DocumentReader, data: Buffer, maxChars: number): Promise<string> {
  const text = normalise(reader === 'pdf' ? await pdfText(data) : decodeText(data));
  if (!text && reader === 'pdf') throw new MediaError('DOCUMENT_NO_TEXT', 'the PDF has no text layer (a scan?)');
  return truncateText(text, maxChars);
}
