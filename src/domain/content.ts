// BR-001: inbound text must be non-empty and at most 10 000 characters.
export const MAX_MESSAGE_CHARS = 10_000;

export type ContentCheck =
  { ok: true; text: string } | { ok: false; code: 'MESSAGE_CONTENT_REQUIRED' | 'MESSAGE_TOO_LONG' };

export function checkInboundText(raw: string | undefined): ContentCheck {
  const text = (raw ?? '').trim();
  if (text.length === 0) return { ok: false, code: 'MESSAGE_CONTENT_REQUIRED' };
  // Count code points, not UTF-16 units, so emoji and CJK count as one character each.
  if ([...text].length > MAX_MESSAGE_CHARS) return { ok: false, code: 'MESSAGE_TOO_LONG' };
  return { ok: true, text };
}
