// The working window's rules: what it keeps, when it trims, and when a history read must go to
// the record because the window no longer reaches back far enough.
import { describe, expect, it } from 'vitest';
import {
  WINDOW_KEEP,
  WINDOW_TRIM_AT,
  belongsInWindow,
  toWindowEntry,
  trimPlan,
  windowCovers,
  windowMessages,
} from '../../src/domain/windowRules.js';
import type { Message, WindowEntry } from '../../src/domain/model.js';

const t0 = Date.parse('2024-05-01T10:00:00Z');
const entry = (i: number, extra: Partial<Message> = {}): WindowEntry => ({
  _id: `m${String(i).padStart(4, '0')}`,
  dialogueId: 'd',
  sessionId: 's',
  senderRole: 'human',
  senderId: 'h',
  contentType: 'text',
  content: `text ${i}`,
  mentions: [],
  visible: true,
  createdAt: new Date(t0 + i * 1000),
  updatedAt: new Date(t0 + i * 1000),
  ...extra,
});
const windowOf = (entries: WindowEntry[]) => ({ entries: Object.fromEntries(entries.map((e) => [e._id, e])) });

describe('working window rules', () => {
  it('keeps the conversation only, without search keys or edit history', () => {
    expect(belongsInWindow(entry(1))).toBe(true);
    expect(belongsInWindow(entry(1, { contentType: 'command' }))).toBe(false);
    expect(belongsInWindow(entry(1, { rejected: { code: 'MESSAGE_TOO_LONG' } }))).toBe(false);
    expect(belongsInWindow(entry(1, { deleted: { at: new Date() } }))).toBe(false);
    expect(
      belongsInWindow(entry(1, { senderRole: 'ai', delivery: { state: 'streaming', platformMessageIds: [] } })),
    ).toBe(false);
    // searchKeys: what versions before the search index wrote on messages.
    const stored = toWindowEntry({
      ...entry(1),
      ...{ searchKeys: ['te'] },
      edits: [{ content: 'old', editedAt: new Date() }],
    });
    expect(stored).not.toHaveProperty('searchKeys');
    expect(stored).not.toHaveProperty('edits');
  });

  it('reads entries oldest first, ignoring partial ones and messages that left the conversation', () => {
    const w = windowOf([entry(3), entry(1), entry(2, { deleted: { at: new Date() } })]);
    (w.entries as Record<string, unknown>).stub = { content: 'half-written' };
    expect(windowMessages(w).map((e) => e._id)).toEqual(['m0001', 'm0003']);
  });

  it('trims to the newest entries once it reaches the trim size, and says from when it is complete', () => {
    const below = Array.from({ length: WINDOW_TRIM_AT - 1 }, (_, i) => entry(i));
    expect(trimPlan(windowOf(below))).toBeUndefined();
    const full = Array.from({ length: WINDOW_TRIM_AT }, (_, i) => entry(i));
    const plan = trimPlan(windowOf(full))!;
    expect(plan.drop).toHaveLength(WINDOW_TRIM_AT - WINDOW_KEEP);
    expect(plan.drop[0]).toBe('m0000');
    expect(plan.trimmedBefore).toEqual(entry(WINDOW_TRIM_AT - WINDOW_KEEP).createdAt);
  });

  it('answers a read from the window only as far back as it is complete', () => {
    expect(windowCovers({})).toBe(true); // never trimmed: the whole session
    const trimmed = { trimmedBefore: new Date(t0 + 100_000) };
    expect(windowCovers(trimmed)).toBe(false); // the whole session is no longer there
    expect(windowCovers(trimmed, new Date(t0 + 100_000))).toBe(true);
    expect(windowCovers(trimmed, new Date(t0 + 50_000))).toBe(false);
  });
});
