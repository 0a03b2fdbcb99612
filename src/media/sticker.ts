// Stickers are not downloaded: the emoji they stand for and their set name say enough.
import type { Attachment } from '../domain/model.js';

export function stickerText(att: Pick<Attachment, 'emoji' | 'setName'>): string {
  const parts = [att.emoji?.trim(), att.setName ? `(sticker set "${att.setName}")` : undefined].filter(
    (p): p is string => !!p,
  );
  return parts.length > 0 ? parts.join(' ') : '(sticker)';
}
