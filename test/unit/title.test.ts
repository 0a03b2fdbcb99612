import { describe, expect, it } from 'vitest';
import { titleFromFirstMessage } from '../../src/domain/title.js';

const codePoints = (s: string) => [...s].length;

describe('titleFromFirstMessage (FR-007 / BR-003)', () => {
  it('collapses runs of whitespace (spaces, tabs, newlines) into single spaces and trims', () => {
    expect(titleFromFirstMessage('  hello \t\n\n  world\r\nagain  ')).toBe('hello world again');
  });

  it('keeps a short message as it is', () => {
    expect(titleFromFirstMessage('What is the weather?')).toBe('What is the weather?');
  });

  it('keeps exactly 40 characters without an ellipsis', () => {
    const text = 'a'.repeat(40);
    expect(titleFromFirstMessage(text)).toBe(text);
  });

  it('truncates 41 characters to 39 plus "…" (40 in all)', () => {
    const title = titleFromFirstMessage('a'.repeat(41));
    expect(title).toBe(`${'a'.repeat(39)}…`);
    expect(codePoints(title)).toBe(40);
  });

  it('measures the length after whitespace is collapsed', () => {
    // 40 characters once the double spaces become single ones.
    const text = `${'a'.repeat(19)}  ${'b'.repeat(20)}`;
    expect(titleFromFirstMessage(text)).toBe(`${'a'.repeat(19)} ${'b'.repeat(20)}`);
  });

  it('counts CJK characters one each: 40 are kept, 41 are cut to 39 + "…"', () => {
    const forty = '你好世界'.repeat(10);
    expect(titleFromFirstMessage(forty)).toBe(forty);
    const title = titleFromFirstMessage(`${forty}啊`);
    expect(title).toBe(`${forty.slice(0, 39)}…`);
    expect(codePoints(title)).toBe(40);
  });

  it('counts emoji one each and never cuts one in half', () => {
    expect(titleFromFirstMessage('😀'.repeat(40))).toBe('😀'.repeat(40));
    expect(titleFromFirstMessage('😀'.repeat(41))).toBe(`${'😀'.repeat(39)}…`);
  });

  it('does not leave a space before the ellipsis', () => {
    const text = `${'a'.repeat(38)} ${'b'.repeat(10)}`;
    expect(titleFromFirstMessage(text)).toBe(`${'a'.repeat(38)}…`);
  });
});
