// Which SPEC §3 content type an inbound message is: its first media item decides, then a
// quote; plain text otherwise. Pure.
import type { AttachmentKind, ContentType } from './model.js';

const BY_KIND: Record<AttachmentKind, ContentType> = {
  image: 'image',
  animation: 'image',
  sticker: 'image',
  audio: 'audio',
  voice: 'audio',
  video_note: 'audio',
  video: 'audio',
  document: 'file',
};

export function inboundContentType(
  attachments: ReadonlyArray<{ kind: AttachmentKind }>,
  hasQuote: boolean,
): ContentType {
  const first = attachments[0];
  if (first) return BY_KIND[first.kind];
  return hasQuote ? 'quote_reply' : 'text';
}
