import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReplyStreamer, draftIdOf } from '../../src/delivery/replyStreamer.js';
import { PlatformRateLimitedError, type OutboundChannel, type SendOptions } from '../../src/delivery/outbound.js';
import type { SkippableOutbound } from '../../src/delivery/pacedOutbound.js';
import type { ChatRef } from '../../src/domain/model.js';
import type { MessageKey, MessageRepo } from '../../src/store/messages.js';

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
    saveStreamedText(message: MessageKey, text: string, at: Date) {
      expect(at).toBeInstanceOf(Date);
      expect(message.dialogueId).toBe('d-1');
      log.push({ op: 'save', id: message._id, text });
      return Promise.resolve();
    },
    recordPlatformMessage(message: { _id: string }, _chat: unknown, platformId: string) {
      log.push({ op: 'record', id: message._id, platformId });
      return Promise.resolve();
    },
  } as unknown as MessageRepo;
  return { log, outbound, messages };
}

function streamer(f: Fakes, opts: { intervalMs?: number; deliveredIds?: string[] } = {}) {
  return new ReplyStreamer({
    message: { _id: 'm-1', dialogueId: 'd-1' },
    chat,
    outbound: f.outbound,
    messages: f.messages,
    intervalMs: opts.intervalMs ?? 0,
    deliveredIds: opts.deliveredIds ?? [],
  });
}

const shown = (log: Entry[]) =>
  log.filter((e): e is Extract<Entry, { op: 'send' | 'edit' }> => e.op === 'send' || e.op === 'edit');

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
  it('after endStreaming nothing streamed is written or shown, even a push queued while it waited', async () => {
    const f = fakes();
    let open!: () => void;
    f.outbound.sendGate = new Promise<void>((r) => (open = r));
    const s = streamer(f);
    s.append('Hello'); // in flight: stored, its send held at the gate
    await vi.waitFor(() => expect(f.log).toEqual([{ op: 'save', id: 'm-1', text: 'Hello' }]));
    const ending = s.endStreaming();
    s.append(' late'); // a delta arriving while the push is still in flight
    open();
    await ending;
    const after = f.log.length;
    s.append(' later');
    await s.drain();
    expect(f.log.slice(after)).toEqual([]);
    expect(f.log.filter((e) => e.op === 'save').map((e) => (e as { text: string }).text)).toEqual(['Hello']);
  });

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
    expect(f.log.filter((e) => e.op === 'record').map((e) => (e as { platformId: string }).platformId)).toEqual(
      s.platformMessageIds,
    );
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

// ---- budget, drafts, typing, send options ------------------------------------------------------

type Op =
  | { op: 'save'; text: string }
  | { op: 'record'; platformId: string }
  | { op: 'send'; text: string; platformId: string; options?: SendOptions }
  | { op: 'edit'; platformId: string; text: string; options?: SendOptions }
  | { op: 'tryEdit'; platformId: string; text: string; options?: SendOptions }
  | { op: 'draft'; draftId: number; text: string }
  | { op: 'typing-stop' };

/** A paced-like outbound: tryEdit/tryDraft spend `budget`, which the test controls. */
function paced(o: { budget?: number; draft?: 'ok' | 'refuse' | 'rate-limited'; limit?: number } = {}) {
  const log: Op[] = [];
  let next = 1;
  const state = { budget: o.budget ?? Number.POSITIVE_INFINITY };
  const spend = () => {
    if (state.budget <= 0) return false;
    state.budget -= 1;
    return true;
  };
  const outbound: SkippableOutbound = {
    platform: 'telegram',
    maxMessageChars: o.limit ?? LIMIT,
    send(_c, text, options) {
      const platformId = `p${next++}`;
      log.push({ op: 'send', text, platformId, ...(options ? { options } : {}) });
      return Promise.resolve({ platformMessageId: platformId });
    },
    edit(_c, platformId, text, options) {
      log.push({ op: 'edit', platformId, text, ...(options ? { options } : {}) });
      return Promise.resolve();
    },
    tryEdit(_c, platformId, text, options) {
      if (!spend()) return Promise.resolve(false);
      log.push({ op: 'tryEdit', platformId, text, ...(options ? { options } : {}) });
      return Promise.resolve(true);
    },
    typing: () => Promise.resolve(),
    ...(o.draft
      ? {
          draft: () => Promise.reject(new Error('waiting drafts are not used by the streamer')),
          tryDraft(_c: ChatRef, draftId: number, text: string) {
            if (o.draft === 'refuse') return Promise.reject(new Error('Bad Request: TEXTDRAFT_PEER_INVALID'));
            if (o.draft === 'rate-limited') return Promise.reject(new PlatformRateLimitedError('telegram', 1000));
            if (!spend()) return Promise.resolve(false);
            log.push({ op: 'draft', draftId, text });
            return Promise.resolve(true);
          },
        }
      : {}),
  };
  const messages = {
    saveStreamedText: (_m: MessageKey, text: string) => (log.push({ op: 'save', text }), Promise.resolve()),
    recordPlatformMessage: (_message: unknown, _chat: unknown, platformId: string) => (
      log.push({ op: 'record', platformId }),
      Promise.resolve()
    ),
  };
  const typing = { stop: () => void log.push({ op: 'typing-stop' }) };
  return { log, outbound, messages, typing, state };
}

function streamOn(p: ReturnType<typeof paced>, o: Partial<ConstructorParameters<typeof ReplyStreamer>[0]> = {}) {
  return new ReplyStreamer({
    message: { _id: 'm-1', dialogueId: 'd-1' },
    chat,
    outbound: p.outbound,
    messages: p.messages,
    intervalMs: 0,
    deliveredIds: [],
    typing: p.typing,
    ...o,
  });
}
const visible = (log: Op[]) => log.filter((e) => e.op !== 'save' && e.op !== 'record' && e.op !== 'typing-stop');

describe('ReplyStreamer with a chat budget', () => {
  it('skips an intermediate edit when the chat has no budget, and the final push still shows everything', async () => {
    const p = paced({ budget: 0 });
    const s = streamOn(p);
    s.append('Hello');
    await s.drain();
    s.append(' world');
    await s.drain();
    // The first message is a new chunk: it is sent (waiting for budget), the edit is skipped.
    expect(visible(p.log)).toEqual([{ op: 'send', text: 'Hello', platformId: 'p1' }]);
    expect(s.lastError).toBeUndefined();
    await s.finish('Hello world!');
    expect(visible(p.log)).toEqual([
      { op: 'send', text: 'Hello', platformId: 'p1' },
      { op: 'edit', platformId: 'p1', text: 'Hello world!' },
    ]);
  });

  it('retries a skipped push on its own when no more text streams in', async () => {
    const p = paced({ budget: 0 });
    const s = streamOn(p, { intervalMs: 20 });
    s.append('Hello');
    await new Promise((r) => setTimeout(r, 10));
    s.append(' again');
    await new Promise((r) => setTimeout(r, 30)); // the scheduled push ran and was skipped
    p.state.budget = 1;
    await vi.waitFor(
      () => expect(visible(p.log).at(-1)).toEqual({ op: 'tryEdit', platformId: 'p1', text: 'Hello again' }),
      { timeout: 5000 },
    );
    await s.drain();
  });

  it('uses tryEdit for intermediate edits and a waiting edit for the final one', async () => {
    const p = paced();
    const s = streamOn(p);
    s.append('One');
    await s.drain();
    s.append(' two');
    await s.drain();
    await s.finish('One two three');
    expect(visible(p.log).map((e) => e.op)).toEqual(['send', 'tryEdit', 'edit']);
  });

  it('passes the persona to every message and the reply-to only to the first', async () => {
    const p = paced();
    const s = streamOn(p, { sendOptions: { persona: { name: 'Iris' }, replyToPlatformMessageId: '77' } });
    s.append('First part here.');
    await s.drain();
    await s.finish('First part here. Second part follows.');
    const ops = visible(p.log);
    expect(ops[0]).toEqual({
      op: 'send',
      text: 'First part here.',
      platformId: 'p1',
      options: { persona: { name: 'Iris' }, replyToPlatformMessageId: '77' },
    });
    const later = ops.slice(1).filter((e): e is Extract<Op, { op: 'send' }> => e.op === 'send');
    expect(later.length).toBeGreaterThan(0);
    for (const e of later) expect(e.options).toEqual({ persona: { name: 'Iris' } });
  });

  it('stops the typing indicator at the first text shown, or at finish', async () => {
    const p = paced();
    const s = streamOn(p);
    s.append('Hi');
    await s.drain();
    expect(p.log.findIndex((e) => e.op === 'typing-stop')).toBeGreaterThan(p.log.findIndex((e) => e.op === 'send'));
    const q = paced();
    const t = streamOn(q);
    await t.finish('Done');
    expect(q.log.some((e) => e.op === 'typing-stop')).toBe(true);
  });
});

describe('ReplyStreamer with drafts (Telegram private chats)', () => {
  it('streams the text as a draft and sends one real message at the end', async () => {
    const p = paced({ draft: 'ok', limit: 4096 });
    const s = streamOn(p, { drafts: true });
    for (const d of ['Hel', 'lo ', 'there']) {
      s.append(d);
      await s.drain();
    }
    await s.finish('Hello there!');
    const id = draftIdOf('m-1', 0);
    expect(visible(p.log)).toEqual([
      { op: 'draft', draftId: id, text: 'Hel' },
      { op: 'draft', draftId: id, text: 'Hello' },
      { op: 'draft', draftId: id, text: 'Hello there' },
      { op: 'send', text: 'Hello there!', platformId: 'p1' },
    ]);
    expect(s.platformMessageIds).toEqual(['p1']);
    // Persist before push holds for drafts too.
    expect(p.log[0]).toEqual({ op: 'save', text: 'Hel' });
  });

  it('sends a chunk as a real message once it is complete, and drafts the next one', async () => {
    const p = paced({ draft: 'ok' });
    const s = streamOn(p, { drafts: true });
    s.append('Part one is here.');
    await s.drain();
    s.append(' Part two');
    await s.drain();
    const ops = visible(p.log);
    expect(ops).toEqual([
      { op: 'draft', draftId: draftIdOf('m-1', 0), text: 'Part one is here.' },
      { op: 'send', text: 'Part one is here.', platformId: 'p1' },
      { op: 'draft', draftId: draftIdOf('m-1', 1), text: 'Part two' },
    ]);
    expect(draftIdOf('m-1', 0)).not.toBe(draftIdOf('m-1', 1));
    await s.finish('Part one is here. Part two.');
    expect(visible(p.log).at(-1)).toEqual({ op: 'send', text: 'Part two.', platformId: 'p2' });
  });

  it('falls back to edits for the rest of the reply when a draft is refused', async () => {
    const p = paced({ draft: 'refuse', limit: 4096 });
    const s = streamOn(p, { drafts: true });
    s.append('Hello');
    await s.drain();
    s.append(' world');
    await s.drain();
    await s.finish('Hello world!');
    expect(visible(p.log)).toEqual([
      { op: 'send', text: 'Hello', platformId: 'p1' },
      { op: 'tryEdit', platformId: 'p1', text: 'Hello world' },
      { op: 'edit', platformId: 'p1', text: 'Hello world!' },
    ]);
    expect(s.draftError).toBeInstanceOf(Error);
  });

  it('treats a rate-limited draft as skipped, not refused', async () => {
    const p = paced({ draft: 'rate-limited', limit: 4096 });
    const s = streamOn(p, { drafts: true });
    s.append('Hello');
    await s.drain();
    expect(visible(p.log)).toEqual([]);
    expect(s.draftError).toBeUndefined();
    await s.finish('Hello!');
    expect(visible(p.log)).toEqual([{ op: 'send', text: 'Hello!', platformId: 'p1' }]);
  });

  it('does not draft when drafts are off or the outbound has none', async () => {
    const off = paced({ draft: 'ok', limit: 4096 });
    const s = streamOn(off, { drafts: false });
    s.append('Hi');
    await s.drain();
    expect(visible(off.log)).toEqual([{ op: 'send', text: 'Hi', platformId: 'p1' }]);
    const none = paced({ limit: 4096 });
    const t = streamOn(none, { drafts: true });
    t.append('Hi');
    await t.drain();
    expect(visible(none.log)).toEqual([{ op: 'send', text: 'Hi', platformId: 'p1' }]);
  });

  it('on a retried attempt, edits the delivered chunks and drafts only the new tail', async () => {
    const p = paced({ draft: 'ok' });
    const s = streamOn(p, { drafts: true, deliveredIds: ['7'] });
    s.append('Part one is here. Part two');
    await s.drain();
    expect(visible(p.log)).toEqual([
      { op: 'tryEdit', platformId: '7', text: 'Part one is here.' },
      { op: 'draft', draftId: draftIdOf('m-1', 1), text: 'Part two' },
    ]);
  });

  it('derives stable, non-zero 31-bit draft ids', () => {
    for (let i = 0; i < 50; i++) {
      const id = draftIdOf(`msg-${i}`, i % 3);
      expect(id).toBe(draftIdOf(`msg-${i}`, i % 3));
      expect(id).toBeGreaterThan(0);
      expect(id).toBeLessThan(2 ** 31);
    }
  });
});

describe('ReplyStreamer after a crashed attempt that showed more', () => {
  it('spreads a shorter final reply over every delivered message, so none keeps stale text', async () => {
    const p = paced();
    const s = streamOn(p, { deliveredIds: ['7', '8', '9'] });
    await s.finish('Short final answer here.');
    const edits = visible(p.log).filter((e): e is Extract<Op, { op: 'edit' }> => e.op === 'edit');
    expect(edits.map((e) => e.platformId)).toEqual(['7', '8', '9']);
    const all = visible(p.log).map((e) => ('text' in e ? e.text : ''));
    expect(all.join(' ')).toBe('Short final answer here.');
    expect(s.platformMessageIds.slice(0, 3)).toEqual(['7', '8', '9']);
  });
});
