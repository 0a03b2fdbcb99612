import { describe, expect, it } from 'vitest';
import { checkInboundText, MAX_MESSAGE_CHARS } from '../../src/domain/content.js';

describe('checkInboundText (BR-001)', () => {
  it('the limit is 10 000 characters', () => {
    expect(MAX_MESSAGE_CHARS).toBe(10_000);
  });

  it.each([
    ['undefined', undefined],
    ['the empty string', ''],
    ['a single space', ' '],
    ['spaces, tabs and newlines', ' \t\n\r\n  '],
  ])('rejects %s as MESSAGE_CONTENT_REQUIRED', (_label, raw) => {
    expect(checkInboundText(raw)).toEqual({ ok: false, code: 'MESSAGE_CONTENT_REQUIRED' });
  });

  it('accepts exactly 10 000 characters', () => {
    const raw = 'a'.repeat(10_000);
    expect(checkInboundText(raw)).toEqual({ ok: true, text: raw });
  });

  it('rejects 10 001 characters as MESSAGE_TOO_LONG', () => {
    expect(checkInboundText('a'.repeat(10_001))).toEqual({ ok: false, code: 'MESSAGE_TOO_LONG' });
  });

  it('counts an emoji (a surrogate pair) as one character: 10 000 emoji are accepted', () => {
    const raw = '😀'.repeat(10_000);
    expect(raw.length).toBe(20_000); // UTF-16 units: would be "too long" if units were counted
    expect(checkInboundText(raw)).toEqual({ ok: true, text: raw });
  });

  it('rejects 10 001 emoji', () => {
    expect(checkInboundText('😀'.repeat(10_001))).toEqual({ ok: false, code: 'MESSAGE_TOO_LONG' });
  });

  it('accepts 10 000 CJK characters and rejects 10 001', () => {
    expect(checkInboundText('字'.repeat(10_000)).ok).toBe(true);
    expect(checkInboundText('字'.repeat(10_001))).toEqual({ ok: false, code: 'MESSAGE_TOO_LONG' });
  });

  it('trims surrounding whitespace from the accepted text', () => {
    expect(checkInboundText('  \n hello world \t\n')).toEqual({ ok: true, text: 'hello world' });
  });

  it('keeps inner whitespace untouched', () => {
    expect(checkInboundText(' a  \n\n  b ')).toEqual({ ok: true, text: 'a  \n\n  b' });
  });

  it('does not count surrounding whitespace towards the limit', () => {
    const body = 'a'.repeat(10_000);
    expect(checkInboundText(`   ${body}\n\n`)).toEqual({ ok: true, text: body });
  });
});
