// What the bytes are, as far as the media APIs care: the image type for a data URL, the file
// name an audio upload needs (OpenAI picks the decoder by extension), a document's reader.
// Magic bytes win over declared types: Telegram file downloads are often application/octet-stream.
import type { Attachment } from '../domain/model.js';

const startsWith = (data: Buffer, bytes: number[], at = 0): boolean =>
  data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** The image's MIME type from its first bytes, if it is one the vision APIs take. */
export function sniffImageMime(data: Buffer): string | undefined {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, ascii('GIF8'))) return 'image/gif';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

export function imageMime(data: Buffer, ...declared: Array<string | undefined>): string {
  return sniffImageMime(data) ?? declared.find((m) => m?.startsWith('image/')) ?? 'image/jpeg';
}

/** Extensions the OpenAI transcription endpoint decodes. */
const AUDIO_EXTENSIONS = new Set(['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm']);
const AUDIO_MIME_EXTENSIONS: Record<string, string> = {
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'application/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'm4a',
  'video/mp4': 'mp4',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
};
/** Telegram voice notes are Opus in Ogg but named `.oga`, which the endpoint rejects. */
const EXTENSION_ALIASES: Record<string, string> = { oga: 'ogg', opus: 'ogg', mov: 'mp4', m4v: 'mp4', wave: 'wav' };
const KIND_DEFAULT_EXTENSION: Record<string, string> = { voice: 'ogg', video_note: 'mp4', video: 'mp4', audio: 'mp3' };

function sniffAudioExtension(data: Buffer): string | undefined {
  if (startsWith(data, ascii('OggS'))) return 'ogg';
  if (startsWith(data, ascii('fLaC'))) return 'flac';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WAVE'), 8)) return 'wav';
  if (startsWith(data, [0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  if (startsWith(data, ascii('ID3')) || startsWith(data, [0xff, 0xfb]) || startsWith(data, [0xff, 0xf3])) return 'mp3';
  if (startsWith(data, ascii('ftyp'), 4)) return startsWith(data, ascii('M4A'), 8) ? 'm4a' : 'mp4';
  return undefined;
}

function splitName(name: string | undefined): { stem: string; ext: string | undefined } {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return { stem: base, ext: undefined };
  return { stem: base.slice(0, dot), ext: base.slice(dot + 1).toLowerCase() };
}

/** A file name whose extension the transcription endpoint accepts for these bytes. */
export function audioUploadName(
  att: Pick<Attachment, 'kind' | 'fileName' | 'mime'>,
  data: Buffer,
  fetched?: { fileName?: string; mime?: string },
): string {
  const { stem, ext: rawExt } = splitName(fetched?.fileName ?? att.fileName);
  const named = rawExt ? (EXTENSION_ALIASES[rawExt] ?? rawExt) : undefined;
  const declared = [fetched?.mime, att.mime]
    .map((m) => (m ? AUDIO_MIME_EXTENSIONS[m.split(';')[0]!.trim().toLowerCase()] : undefined))
    .find(Boolean);
  const ext =
    sniffAudioExtension(data) ??
    (named && AUDIO_EXTENSIONS.has(named) ? named : undefined) ??
    declared ??
    KIND_DEFAULT_EXTENSION[att.kind] ??
    'ogg';
  return `${stem || att.kind}.${ext}`;
}

export type DocumentReader = 'plain' | 'pdf';

const PLAIN_MIMES = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);
const PLAIN_EXTENSIONS = new Set(['txt', 'md', 'markdown']);

/** How a document is read, decided before downloading it; undefined = we do not read this type. */
export function documentReader(att: Pick<Attachment, 'fileName' | 'mime'>): DocumentReader | undefined {
  const mime = att.mime?.split(';')[0]?.trim().toLowerCase();
  const { ext } = splitName(att.fileName);
  if (mime === 'application/pdf' || ext === 'pdf') return 'pdf';
  if ((mime && PLAIN_MIMES.has(mime)) || (ext && PLAIN_EXTENSIONS.has(ext))) return 'plain';
  return undefined;
}
