import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReplyStreamer } from '../../src/delivery/replyStreamer.js';
import type { OutboundChannel } from '../../src/delivery/outbound.js';
import type { ChatRef } from '../../src/domain/model.js';
import type { MessageRepo } from '../../src/store/messages.js';

const LIMIT = 20;
const chat: ChatRef = { platform: 'telegram', chatId: 'c-1' };

type Entry =
  | { op: 'save'; id: string; text: string }
  | { op: 'record'; id: string; platformId: string }
  | { op: 'send'; text: string; platformId: string }
  | { op: 'edit'; platformId: string; text: string };

interface Fakes {
  log: Entry[];
  outbound: OutboundChannel & { failEdit?: (n: number) => boolean; failSend?: boolean; sendGate?: Promise<void> };
  messages: MessageRepo;
}

function fakes(): Fakes {
  const log: Entry[] = [];
  let nextId = 1;
  let edits = 0;
  const outbound: Fakes['outbound'] = {
    platform: 'telegram',
    maxMessageChars: LIMIT,
    async send(c, text) {
      expect(c).toEqual(chat);
      if (outbound.sendGate) await outbound.sendGate;
      if (outbound.failSend) throw new Error('send failed');
      const platformId = `p${nextId++}`;
      log.push({ op: 'send', text, platformId });
      return { platformMessageId: platformId };
    },
    edit(c, platformId, text) {
      expect(c).toEqual(chat);
      edits += 1;
      if (outbound.failEdit?.(edits)) return Promise.reject(new Error(`edit ${edits} failed`));
      log.push({ op: 'edit', platformId, text });
      return Promise.resolve();
    },
    typing: () => Promise.resolve(),
  };
  const messages = {
    saveStreamedText(id: string, text: string, at: Date) {
      expect(at).toBeInstanceOf(Date);
      log.push({ op: 'save', id, text });
      return Promise.resolve();
    },
    recordPlatformMessage(id: string, platformId: string) {
      log.push({ op: 'record', id, platformId });
      return Promise.resolve();
    },
  } as unknown as MessageRepo;
  return { log, outbound, messages };
}

function streamer(f: Fakes, opts: { intervalMs?: number; deliveredIds?: string[] } = {}) {
  return new ReplyStreamer({
    messageId: 'm-1',
    chat,
    outbound: f.outbound,
    messages: f.messages,
    intervalMs: opts.intervalMs ?? 0,
    deliveredIds: opts.deliveredIds ?? [],
  });
}

const shown = (log: Entry[]) => log.filter((e): e is Extract<Entry, { op: 'send' | 'edit' }> => e.op === 'send' || e.op === 'edit');

/** Every text shown was stored before it was shown (the latest stored text contains it). */
function expectPersistBeforePush(log: Entry[]) {
  log.forEach((e, i) => {
    if (e.op !== 'send' && e.op !== 'edit') return;
    const saves = log.slice(0, i).filter((s): s is Extract<Entry, { op: 'save' }> => s.op === 'save');
    expect(saves.length, `nothing stored before ${e.op} "${e.text}"`).toBeGreaterThan(0);
    expect(saves.at(-1)!.text).toContain(e.text);
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ReplyStreamer', () => {
  it('sends one message for the first text, then edits it as the text grows', async () => {
    const f = fakes();
    const s = streamer(f);
    s.append('Hello');
    await s.drain();
    s.append(' there');
    await s.drain();
    s.append('!');
    await s.drain();
    expect(shown(f.log)).toEqual([
      { op: 'send', text: 'Hello', platformId: 'p1' },
      { op: 'edit', platformId: 'p1', text: 'Hello there' },
      { op: 'edit', platformId: 'p1', text: 'Hello there!' },
    ]);
    expect(f.log.filter((e) => e.op === 'record')).toEqual([{ op: 'record', id: 'm-1', platformId: 'p1' }]);
    expect(s.platformMessageIds).toEqual(['p1']);
    expect(s.currentText).toBe('Hello there!');
  });

  it('stores each text before the send or edit that shows it (persist before push)', async () => {
    const f = fakes();
    const s = streamer(f);
    for (const d of ['One', ' two', ' three', ' four five six seven']) {
      s.append(d);
      await s.drain();
    }
    expect(f.log.slice(0, 3)).toEqual([
      { op: 'save', id: 'm-1', text: 'One' },
      { op: 'send', text: 'One', platformId: 'p1' },
      { op: 'record', id: 'm-1', platformId: 'p1' },
    ]);
    expect(f.log[3]).toEqual({ op: 'save', id: 'm-1', text: 'One two' });
    expect(f.log[4]).toEqual({ op: 'edit', platformId: 'p1', text: 'One two' });
    expectPersistBeforePush(f.log);
    expect(shown(f.log).length).toBeGreaterThanOrEqual(4);
  });

  it('records a new platform message id before the next push', async () => {
    const f = fakes();
    const s = streamer(f);
    s.append('First');
    await s.drain();
    s.append(' second');
    await s.drain();
    const recordAt = f.log.findIndex((e) => e.op === 'record');
    const nextSave = f.log.findIndex((e, i) => i > recordAt && e.op === 'save');
    expect(recordAt).toBeGreaterThan(f.log.findIndex((e) => e.op === 'send'));
    expect(nextSave).toBeGreaterThan(recordAt);
  });

  it('does not show (or store) a text that is only whitespace', async () => {
    const f = fakes();
    const s = streamer(f);
    s.append('  \n ');
    await s.drain();
    expect(f.log).toEqual([]);
    await s.finish('   ');
    expect(f.log).toEqual([]);
    expect(s.platformMessageIds).toEqual([]);
  });

  it('sends a second message when the final text is longer than the platform limit', async () => {
    const f = fakes();
    const s = streamer(f);
    s.append('Short start.');
    await s.drain();
    const final = 'Short start. And then a much longer ending.';
    expect(final.length).toBeGreaterThan(LIMIT);
    await s.finish(final);
    const pushes = shown(f.log);
    expect(pushes[0]).toEqual({ op: 'send', text: 'Short start.', platformId: 'p1' });
    const sends = pushes.filter((e) => e.op === 'send');
    expect(sends.length).toBeGreaterThanOrEqual(2);
    for (const e of pushes) expect(e.text.length).toBeLessThanOrEqual(LIMIT);
    // Together the messages carry the whole text.
    const lastTextById = new Map<string, string>();
    for (const e of pushes) lastTextById.set(e.platformId, e.text);
    expect([...lastTextById.values()].join(' ').replace(/\s+/g, ' ')).toBe(final);
    expect(s.platformMessageIds).toEqual(sends.map((e) => e.platformId));
    expect(f.log.filter((e) => e.op === 'record').map((e) => (e as { platformId: string }).platformId)).toEqual(s.platformMessageIds);
  });

  it('keeps a text of exactly the limit in one message and sends a second one past it', async () => {
    const f = fakes();
    const s = streamer(f);
    s.append('a'.repeat(LIMIT));
    await s.drain();
    expect(shown(f.log)).toEqual([{ op: 'send', text: 'a'.repeat(LIMIT), platformId: 'p1' }]);
    s.append('b');
    await s.drain();
    expect(shown(f.log).filter((e) => e.op === 'send')).toHaveLength(2);
    expect(s.platformMessageIds).toEqual(['p1', 'p2']);
  });

  it('does not edit a message whose text has not changed', async () => {
    const f = fakes();
    const s = streamer(f);
    s.append('Hello');
    await s.drain();
    await s.finish('Hello');
    expect(shown(f.log)).toEqual([{ op: 'send', text: 'Hello', platformId: 'p1' }]);
  });

  it('on a retried attempt, edits the already-delivered message instead of sending chunk 0 again', async () => {
    const f = fakes();
    const s = streamer(f, { deliveredIds: ['7'] });
    s.append('Again');
    await s.drain();
    s.append(' and again');
    await s.drain();
    await s.finish('Again and again.');
    expect(f.log.some((e) => e.op === 'send')).toBe(false);
    expect(f.log.some((e) => e.op === 'record')).toBe(false);
    expect(shown(f.log)).toEqual([
      { op: 'edit', platformId: '7', text: 'Again' },
      { op: 'edit', platformId: '7', text: 'Again and again' },
      { op: 'edit', platformId: '7', text: 'Again and again.' },
    ]);
    expect(s.platformMessageIds).toEqual(['7']);
  });

  it('on a retried attempt, sends only the chunks that were not delivered yet', async () => {
    const f = fakes();
    const s = streamer(f, { deliveredIds: ['7'] });
    await s.finish('Part one is here. Part two follows.');
    expect(shown(f.log)[0]).toMatchObject({ op: 'edit', platformId: '7' });
    expect(shown(f.log).filter((e) => e.op === 'send')).toHaveLength(1);
    expect(s.platformMessageIds).toEqual(['7', 'p1']);
  });

  it('keeps streaming after an intermediate edit fails, and the next push carries the whole text', async () => {
    const f = fakes();
    f.outbound.failEdit = (n) => n === 1;
    const s = streamer(f);
    s.append('Hello');
    await s.drain();
    s.append(' world');
    await expect(s.drain()).resolves.toBeUndefined();
    expect(s.lastError).toBeInstanceOf(Error);
    expect((s.lastError as Error).message).toBe('edit 1 failed');
    s.append('!');
    await s.drain();
    await expect(s.finish('Hello world!!')).resolves.toBeUndefined();
    expect(shown(f.log)).toEqual([
      { op: 'send', text: 'Hello', platformId: 'p1' },
      { op: 'edit', platformId: 'p1', text: 'Hello world!' },
      { op: 'edit', platformId: 'p1', text: 'Hello world!!' },
    ]);
  });

  it('retries the send on the next push when an intermediate send fails, without a duplicate message', async () => {
    const f = fakes();
    f.outbound.failSend = true;
    const s = streamer(f);
    s.append('Hi');
    await s.drain();
    expect(s.platformMessageIds).toEqual([]);
    f.outbound.failSend = false;
    s.append(' you');
    await s.drain();
    expect(shown(f.log)).toEqual([{ op: 'send', text: 'Hi you', platformId: 'p1' }]);
    expect(s.platformMessageIds).toEqual(['p1']);
  });

  it('rejects finish() when the final push fails', async () => {
    const f = fakes();
    const s = streamer(f);
    s.append('Hello');
    await s.drain();
    f.outbound.failEdit = () => true;
    await expect(s.finish('Hello, final')).rejects.toThrow('edit 1 failed');
  });

  it('rejects finish() when the final send fails', async () => {
    const f = fakes();
    f.outbound.failSend = true;
    const s = streamer(f);
    await expect(s.finish('Never shown')).rejects.toThrow('send failed');
  });

  it('does not let an earlier intermediate failure fail finish()', async () => {
    const f = fakes();
    f.outbound.failSend = true;
    const s = streamer(f);
    s.append('Hi');
    f.outbound.failSend = false;
    // The intermediate push may or may not have failed before this one; either way finish shows the text.
    await expect(s.finish('Hi!')).resolves.toBeUndefined();
    expect(shown(f.log).at(-1)).toMatchObject({ text: 'Hi!' });
  });

  it('drain() waits for a push in flight', async () => {
    const f = fakes();
    let open!: () => void;
    f.outbound.sendGate = new Promise<void>((res) => (open = res));
    const s = streamer(f);
    s.append('Hello');
    let drained = false;
    const draining = s.drain().then(() => {
      drained = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(drained).toBe(false);
    expect(f.log).toEqual([{ op: 'save', id: 'm-1', text: 'Hello' }]);
    open();
    await draining;
    expect(drained).toBe(true);
    expect(f.log.map((e) => e.op)).toEqual(['save', 'send', 'record']);
    expect(s.platformMessageIds).toEqual(['p1']);
  });

  it('pushes at most once per interval, with the latest text', async () => {
    vi.useFakeTimers({ now: new Date('2024-05-01T10:00:00.000Z') });
    const f = fakes();
    const s = streamer(f, { intervalMs: 1000 });
    s.append('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(shown(f.log)).toEqual([{ op: 'send', text: 'a', platformId: 'p1' }]);
    s.append('b');
    s.append('c');
    await vi.advanceTimersByTimeAsync(998);
    expect(shown(f.log)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    await s.drain();
    expect(shown(f.log)).toEqual([
      { op: 'send', text: 'a', platformId: 'p1' },
      { op: 'edit', platformId: 'p1', text: 'abc' },
    ]);
    expectPersistBeforePush(f.log);
  });

  it('drain() cancels a scheduled push, so the caller writes the final state alone', async () => {
    vi.useFakeTimers({ now: new Date('2024-05-01T10:00:00.000Z') });
    const f = fakes();
    const s = streamer(f, { intervalMs: 1000 });
    s.append('a');
    await vi.advanceTimersByTimeAsync(0);
    s.append('b');
    await s.drain();
    await vi.advanceTimersByTimeAsync(5000);
    expect(shown(f.log)).toEqual([{ op: 'send', text: 'a', platformId: 'p1' }]);
    expect(f.log.filter((e) => e.op === 'save').map((e) => (e as { text: string }).text)).toEqual(['a']);
    await s.finish('ab');
    expect(shown(f.log).at(-1)).toEqual({ op: 'edit', platformId: 'p1', text: 'ab' });
  });
});
