import { describe, expect, it } from 'vitest';
import { matchesPlan, planMessageSearch, QUERY_TERMS_MAX } from '../../src/search/messageSearch.js';
import type { Message } from '../../src/domain/model.js';
import { statsWindow, windowCondition } from '../../src/query/timeWindow.js';
import { GatewayError } from '../../src/errors.js';

const now = new Date('2026-03-01T00:00:00Z');
const day = 86_400_000;
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof GatewayError ? err.code : 'other';
  }
  return 'none';
};

const msg = (content: string, extra: Partial<Message> = {}): Message => ({
  _id: 'msg_1',
  dialogueId: 'dlg_1',
  sessionId: 'ses_1',
  turnId: 'trn_1',
  senderRole: 'human',
  senderId: 'hum_1',
  contentType: 'text',
  content,
  mentions: [],
  visible: true,
  createdAt: new Date('2026-02-20T00:00:00Z'),
  updatedAt: new Date('2026-02-20T00:00:00Z'),
  ...extra,
});

describe('message search plan', () => {
  it('reads every bigram of the query (and the dialogue’s list), then checks the literal text case-insensitively', () => {
    const plan = planMessageSearch({ text: ' hELLo ', role: 'human', dialogueId: 'dlg_1' }, now);
    expect(plan.allOf).toEqual(['he', 'el', 'll', 'lo', 'd:dlg_1']);
    expect(plan.anyOf).toEqual([]);
    expect(matchesPlan(plan, msg('well, HELLO there'))).toBe(true);
    expect(matchesPlan(plan, msg('hel lo'))).toBe(false);
    expect(matchesPlan(plan, msg('hello', { senderRole: 'ai' }))).toBe(false);
    expect(matchesPlan(plan, msg('hello', { dialogueId: 'dlg_2' }))).toBe(false);
  });

  it('matches special characters literally', () => {
    const plan = planMessageSearch({ text: 'a.b*c(' }, now);
    expect(matchesPlan(plan, msg('the pattern a.b*c( here'))).toBe(true);
    expect(matchesPlan(plan, msg('axb*c('))).toBe(false);
    const parens = planMessageSearch({ text: '((((' }, now);
    expect(parens.allOf).toEqual(['((']);
    expect(matchesPlan(parens, msg('(((('))).toBe(true);
  });

  it('reads a few bigrams of a long query; the text check keeps it exact', () => {
    const text = '这是一个很长的查询'.repeat(20).slice(0, 200);
    const plan = planMessageSearch({ text }, now);
    expect(plan.allOf.length).toBeLessThanOrEqual(QUERY_TERMS_MAX);
    expect(matchesPlan(plan, msg(text.slice(0, -1)))).toBe(false);
    expect(matchesPlan(plan, msg(`x${text}y`))).toBe(true);
  });

  it('checks caption and transcription, and never returns a deleted message; invisible ones only when asked', () => {
    const plan = planMessageSearch({ text: '橘猫' }, now);
    expect(matchesPlan(plan, msg('', { contentMeta: { caption: '一只橘猫' } }))).toBe(true);
    expect(matchesPlan(plan, msg('', { contentMeta: { transcription: '橘猫睡了' } }))).toBe(true);
    expect(matchesPlan(plan, msg('橘猫', { deleted: { at: now } }))).toBe(false);
    expect(matchesPlan(plan, msg('橘猫', { visible: false }))).toBe(true);
    expect(
      matchesPlan(planMessageSearch({ text: '橘猫', visibleOnly: true }, now), msg('橘猫', { visible: false })),
    ).toBe(false);
  });

  it('keeps a window since inclusive, until exclusive', () => {
    const at = new Date('2026-02-20T00:00:00Z');
    const plan = planMessageSearch({ text: 'hi', since: at, until: new Date(at.getTime() + 1) }, now);
    expect(matchesPlan(plan, msg('hi'))).toBe(true);
    expect(matchesPlan(planMessageSearch({ text: 'hi', until: at }, now), msg('hi'))).toBe(false);
  });

  it('rejects empty, oversized and whitespace-only texts with BAD_REQUEST', () => {
    expect(codeOf(() => planMessageSearch({ text: '   ' }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: 'x'.repeat(201) }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: 'x'.repeat(10_000) }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: '好'.repeat(200) }, now))).toBe('none');
    expect(codeOf(() => planMessageSearch({ text: '?!.,' }, now))).toBe('none');
  });

  it('bounds a one-character search by a dialogue or a window of at most 31 days, answered from their lists', () => {
    expect(codeOf(() => planMessageSearch({ text: '猫' }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: '.' }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: '猫', since: new Date(now.getTime() - 40 * day) }, now))).toBe(
      'BAD_REQUEST',
    );
    expect(codeOf(() => planMessageSearch({ text: '猫', until: now }, now))).toBe('BAD_REQUEST');
    const windowed = planMessageSearch({ text: '猫', since: new Date(now.getTime() - 2 * day) }, now);
    expect(windowed.allOf).toEqual([]);
    expect(windowed.anyOf).toEqual(['t:2026-02-27', 't:2026-02-28']);
    const inDialogue = planMessageSearch({ text: '猫', dialogueId: 'dlg_1' }, now);
    expect(inDialogue.allOf).toEqual(['d:dlg_1']);
    expect(inDialogue.anyOf).toEqual([]);
  });

  it('rejects since after until', () => {
    expect(
      codeOf(() => planMessageSearch({ text: 'hello', since: now, until: new Date(now.getTime() - 1) }, now)),
    ).toBe('BAD_REQUEST');
  });
});

describe('time windows', () => {
  it('are since inclusive, until exclusive', () => {
    expect(windowCondition('at', { since: now, until: new Date(now.getTime() + day) })).toEqual({
      at: { $gte: now, $lt: new Date(now.getTime() + day) },
    });
    expect(windowCondition('at', {})).toEqual({});
    expect(codeOf(() => windowCondition('at', { since: now, until: new Date(now.getTime() - 1) }))).toBe('BAD_REQUEST');
  });

  it('of stats default to the last 7 days and are at most 366 days long', () => {
    expect(statsWindow({}, now)).toEqual({ since: new Date(now.getTime() - 7 * day), until: now });
    expect(statsWindow({ until: now }, now)).toEqual({ since: new Date(now.getTime() - 7 * day), until: now });
    expect(codeOf(() => statsWindow({ since: new Date(now.getTime() - 367 * day) }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => statsWindow({ since: new Date(now.getTime() - 366 * day) }, now))).toBe('none');
  });
});
