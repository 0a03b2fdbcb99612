// The Telegram gateway with a real grammY Bot against the fake Bot API, in both modes: long
// polling through @grammyjs/runner, and webhook (the fake POSTs updates as Telegram does, to the
// gateway's route mounted on a Fastify server, as app/http/ mounts it).
// Every inbound kind, in a private chat, a group, a supergroup and a forum topic, reaches the
// core as the right InboundEvent; malformed updates are dropped without stopping the bot.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino, type Logger } from 'pino';
import { fastify, type FastifyInstance } from 'fastify';
import type { Update } from 'grammy/types';
import { TelegramGateway } from '../../adapters/telegram/bot.js';
import { BOT_COMMANDS } from '../../adapters/telegram/commands.js';
import { inboundEventSchema, type InboundEvent, type InboundEventInput } from '../../src/ingest/inboundEvent.js';
import { startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { eventually, TEST_BOT_TOKEN } from '../support/testEnv.js';
import {
  PLACES,
  albumUpdates,
  audioUpdate,
  documentUpdate,
  editedTextUpdate,
  malformedUpdates,
  newMembersUpdate,
  photoUpdate,
  stickerUpdate,
  textUpdate,
  videoNoteUpdate,
  videoUpdate,
  voiceUpdate,
  type ChatPlace,
} from '../fixtures/telegramUpdates.js';

const SECRET = 'webhook-secret_0123456789abcdef';
const BOT_ID = '7000000001';

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A gateway whose core is a list: what it hands over, in order, and what it logs. */
interface Running {
  gw: TelegramGateway;
  events: InboundEvent[];
  logs: LogLine[];
  /** Hands one update to the gateway the way Telegram would in this mode. */
  deliver(update: object): Promise<void>;
  waitForEvents(n: number): Promise<InboundEvent[]>;
  /** Stops the gateway, then closes its HTTP server. */
  stop(): Promise<void>;
}

function memoryLogger(lines: LogLine[]): Logger {
  return pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s) as LogLine) });
}

async function startGateway(
  tg: FakeTelegram,
  mode: 'polling' | 'webhook',
  onInbound?: (e: InboundEventInput) => Promise<void>,
): Promise<Running> {
  const events: InboundEvent[] = [];
  const logs: LogLine[] = [];
  const gw = new TelegramGateway({
    token: TEST_BOT_TOKEN,
    apiRoot: tg.apiRoot,
    log: memoryLogger(logs),
    mode,
    ...(mode === 'webhook' ? { webhook: { secret: SECRET } } : {}),
    onInbound: async (e) => {
      await onInbound?.(e);
      events.push(inboundEventSchema.parse(e)); // what the core would accept
    },
  });
  let server: FastifyInstance | undefined;
  if (mode === 'webhook') {
    server = fastify();
    await server.register(gw.webhookRoutes());
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as { port: number };
    await gw.start({ serverUrl: `http://127.0.0.1:${port}` });
  } else {
    await gw.start();
  }
  return {
    gw,
    events,
    logs,
    async deliver(update) {
      if (mode === 'polling') return tg.pushUpdate(update);
      const r = await tg.deliverWebhook(update);
      expect(r.status).toBe(200);
    },
    waitForEvents: (n) =>
      eventually(() => Promise.resolve(events.length >= n ? events : undefined), 15_000, `${n} inbound events`),
    async stop() {
      await gw.stop();
      await server?.close();
    },
  };
}

const places: Array<[string, ChatPlace]> = [
  ['private chat', PLACES.private],
  ['group', PLACES.group],
  ['supergroup', PLACES.supergroup],
  ['forum topic', PLACES.topic],
];

/** One of each kind, in one place; update ids are unique per place so places can share a bot. */
function everyKind(place: ChatPlace, base: number): Array<{ update: Update; expect: (e: InboundEvent) => void }> {
  const o = { place };
  const only = (kind: string) => (e: InboundEvent) => {
    expect(e.kind).toBe('message');
    expect(e.kind === 'message' && e.attachments.map((a) => a.kind)).toEqual([kind]);
  };
  return [
    {
      update: textUpdate({
        ...o,
        updateId: base + 1,
        text: 'hi @fake_test_bot and Grace',
        textMentions: [{ text: 'Grace', userId: 555 }],
      }),
      expect: (e) => {
        expect(e).toMatchObject({
          kind: 'message',
          text: 'hi @fake_test_bot and Grace',
          recipient: { userId: BOT_ID, username: 'fake_test_bot' },
        });
        expect(e.kind === 'message' && e.mentions).toEqual([
          { username: 'fake_test_bot', text: '@fake_test_bot' },
          { userId: '555', text: 'Grace' },
        ]);
      },
    },
    {
      update: photoUpdate({ ...o, updateId: base + 2, caption: 'sunset' }),
      expect: (e) => {
        only('image')(e);
        expect(e).toMatchObject({
          text: 'sunset',
          attachments: [{ width: 1280, height: 960, sourceMessageId: String(base + 2) }],
        });
      },
    },
    { update: voiceUpdate({ ...o, updateId: base + 3 }), expect: only('voice') },
    { update: audioUpdate({ ...o, updateId: base + 4 }), expect: only('audio') },
    { update: videoUpdate({ ...o, updateId: base + 5 }), expect: only('video') },
    { update: videoNoteUpdate({ ...o, updateId: base + 6 }), expect: only('video_note') },
    {
      update: documentUpdate({ ...o, updateId: base + 7, fileName: 'plan.md', mime: 'text/markdown' }),
      expect: (e) => {
        only('document')(e);
        expect(e).toMatchObject({ attachments: [{ fileName: 'plan.md', mime: 'text/markdown' }] });
      },
    },
    {
      update: stickerUpdate({ ...o, updateId: base + 8, format: 'animated', emoji: '🎉' }),
      expect: (e) => {
        only('sticker')(e);
        expect(e).toMatchObject({ attachments: [{ emoji: '🎉', mime: 'application/x-tgsticker' }] });
      },
    },
    {
      update: textUpdate({
        ...o,
        updateId: base + 9,
        text: 'why?',
        replyTo: { messageId: base + 1, text: 'hi @fake_test_bot and Grace' },
        quote: 'Grace',
      }),
      expect: (e) =>
        expect(e).toMatchObject({
          replyTo: { platformMessageId: String(base + 1), text: 'hi @fake_test_bot and Grace', quote: 'Grace' },
        }),
    },
    {
      update: editedTextUpdate({
        ...o,
        updateId: base + 10,
        messageId: base + 1,
        text: 'hello @fake_test_bot',
        editDate: 1_800_000_000,
      }),
      expect: (e) =>
        expect(e).toMatchObject({
          kind: 'edit',
          platformMessageId: String(base + 1),
          text: 'hello @fake_test_bot',
          editedAt: new Date(1_800_000_000_000),
        }),
    },
  ];
}

const chatIdOf = (place: ChatPlace): string => (place.kind === 'private' ? '100200300' : String(place.chatId));

describe.each(['polling', 'webhook'] as const)('Telegram gateway (%s)', (mode) => {
  let tg: FakeTelegram;
  let r: Running;
  beforeEach(async () => {
    tg = await startFakeTelegram();
  });
  afterEach(async () => {
    await r?.stop();
    await tg.close();
  });

  it('hands every inbound kind in every kind of chat to the core, in order per chat', async () => {
    r = await startGateway(tg, mode);
    const cases = places.map(([, place], i) => ({ place, cases: everyKind(place, 1000 * (i + 1)) }));
    for (const { cases: list } of cases) for (const c of list) await r.deliver(c.update);
    const total = cases.reduce((n, c) => n + c.cases.length, 0);
    await r.waitForEvents(total);
    expect(r.events).toHaveLength(total);

    for (const { place, cases: list } of cases) {
      const mine = r.events.filter((e) => e.chat.chatId === chatIdOf(place));
      expect(mine).toHaveLength(list.length);
      list.forEach((c, i) => {
        const e = mine[i]!;
        expect(e.platform).toBe('telegram');
        expect(e.chat).toEqual({
          chatId: chatIdOf(place),
          kind: place.kind === 'private' ? 'private' : 'group',
          ...(place.kind === 'private' ? {} : { title: place.title }),
          ...(place.kind === 'topic' ? { threadId: String(place.threadId) } : {}),
        });
        c.expect(e);
      });
    }
  });

  it('an album arrives as three events sharing the media group id', async () => {
    r = await startGateway(tg, mode);
    for (const u of albumUpdates({
      updateId: 500,
      place: PLACES.group,
      count: 3,
      mediaGroupId: 'album-1',
      caption: 'Our trip',
    }))
      await r.deliver(u);
    const events = await r.waitForEvents(3);
    expect(
      events.map((e) => e.kind === 'message' && [e.platformMessageId, e.mediaGroupId, e.text, e.attachments[0]?.kind]),
    ).toEqual([
      ['500', 'album-1', 'Our trip', 'image'],
      ['501', 'album-1', undefined, 'image'],
      ['502', 'album-1', undefined, 'image'],
    ]);
  });

  it('drops malformed updates and service messages, logs why, and keeps going', async () => {
    r = await startGateway(tg, mode);
    const bad = malformedUpdates(700);
    for (const [i, m] of bad.entries()) await r.deliver({ ...m.update, update_id: 700 + i });
    await r.deliver(newMembersUpdate({ updateId: 720, place: PLACES.group }));
    await r.deliver(textUpdate({ updateId: 721, text: 'still there?' }));
    const [only] = await r.waitForEvents(1);
    expect(only).toMatchObject({ platformMessageId: '721', text: 'still there?' });
    expect(r.events).toHaveLength(1);

    const dropped = r.logs.filter((l) => l.msg === 'telegram update dropped');
    expect(dropped.map((l) => l.updateId)).toEqual(bad.map((_, i) => 700 + i));
    expect(dropped.every((l) => String(l.reason).startsWith('malformed update: '))).toBe(true);
    expect(r.logs.find((l) => l.msg === 'telegram update ignored')).toMatchObject({
      updateId: 720,
      reason: 'service message (new_chat_members)',
    });
    expect(JSON.stringify(r.logs)).not.toContain(TEST_BOT_TOKEN);
  });

  it('publishes the command menu in English and Chinese at start', async () => {
    r = await startGateway(tg, mode);
    expect(tg.commandsFor('')).toEqual(BOT_COMMANDS.en);
    expect(tg.commandsFor('zh')).toEqual(BOT_COMMANDS.zh);
    expect(BOT_COMMANDS.en.map((c) => c.command)).toEqual(['start', 'stop', 'new', 'summary', 'background', 'help']);
    // In a private chat a person can also choose whom to talk to.
    const privateMenu = tg.commandsFor('zh', undefined, 'all_private_chats') as Array<{ command: string }>;
    expect(privateMenu.map((c) => c.command)).toEqual([
      'start',
      'stop',
      'new',
      'summary',
      'background',
      'agents',
      'agent',
      'help',
    ]);
  });
});

describe('Telegram gateway, long polling', () => {
  let tg: FakeTelegram;
  let r: Running | undefined;
  beforeEach(async () => {
    tg = await startFakeTelegram();
    r = undefined;
  });
  afterEach(async () => {
    await r?.stop();
    await tg.close();
  });

  it('removes a leftover webhook, then polls for messages and edits only', async () => {
    await fetch(`${tg.apiRoot}/bot${TEST_BOT_TOKEN}/setWebhook?url=https://old.example/hook`);
    r = await startGateway(tg, 'polling');
    await r.deliver(textUpdate({ updateId: 1, text: 'hello' }));
    await r.waitForEvents(1);
    const methods = tg.calls.map((c) => c.method);
    expect(methods.indexOf('deleteWebhook')).toBeLessThan(methods.indexOf('getUpdates'));
    expect(tg.callsOf('getUpdates')[0]!.params.allowed_updates).toEqual(['message', 'edited_message', 'guest_message']);
  });

  it('handles one chat in order while other chats go on concurrently', async () => {
    const trail: string[] = [];
    let releaseA1!: () => void;
    const a1Blocked = new Promise<void>((res) => (releaseA1 = res));
    r = await startGateway(tg, 'polling', async (e) => {
      const name = e.kind === 'message' ? (e.text ?? '') : '';
      trail.push(`start ${name}`);
      if (name === 'A1') await a1Blocked; // held until B1 has been handled: chats do not wait for each other
      if (name === 'B1') releaseA1();
      trail.push(`done ${name}`);
    });
    await r.deliver(textUpdate({ updateId: 1, userId: 1001, text: 'A1' }));
    await r.deliver(textUpdate({ updateId: 2, userId: 1001, text: 'A2' }));
    await r.deliver(textUpdate({ updateId: 3, userId: 2002, text: 'B1' }));
    await r.waitForEvents(3);
    expect(trail.indexOf('done B1')).toBeLessThan(trail.indexOf('done A1'));
    expect(trail.indexOf('done A1')).toBeLessThan(trail.indexOf('start A2'));
    expect(r.events.filter((e) => e.chat.chatId === '1001').map((e) => e.kind === 'message' && e.text)).toEqual([
      'A1',
      'A2',
    ]);
  });

  it('a failing handler does not stop polling', async () => {
    r = await startGateway(tg, 'polling', (e) =>
      e.kind === 'message' && e.text === 'boom' ? Promise.reject(new Error('store down')) : Promise.resolve(),
    );
    await r.deliver(textUpdate({ updateId: 1, text: 'boom' }));
    await r.deliver(textUpdate({ updateId: 2, text: 'after' }));
    const [after] = await r.waitForEvents(1);
    expect(after).toMatchObject({ text: 'after' });
    expect(r.logs.find((l) => l.msg === 'telegram update failed')).toMatchObject({
      updateId: 1,
      error: 'Error: store down',
    });
  });

  it('stops cleanly: waits for the update being handled, then polls no more', async () => {
    const trail: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((res) => (release = res));
    let started!: () => void;
    const handling = new Promise<void>((res) => (started = res));
    r = await startGateway(tg, 'polling', async () => {
      started();
      await held;
      trail.push('handled');
    });
    await r.deliver(textUpdate({ updateId: 1, text: 'slow' }));
    await handling;
    const stopped = r.gw.stop().then(() => trail.push('stopped'));
    setTimeout(release, 200);
    await stopped;
    expect(trail).toEqual(['handled', 'stopped']);
    const polls = tg.callsOf('getUpdates').length;
    tg.pushUpdate(textUpdate({ updateId: 2, text: 'too late' }));
    await new Promise((res) => setTimeout(res, 300));
    expect(tg.callsOf('getUpdates')).toHaveLength(polls);
    expect(r.events).toHaveLength(1);
  });
});

describe('Telegram gateway, webhook', () => {
  let tg: FakeTelegram;
  let r: Running | undefined;
  beforeEach(async () => {
    tg = await startFakeTelegram();
    r = undefined;
  });
  afterEach(async () => {
    await r?.stop();
    await tg.close();
  });

  it('registers its URL with the secret and allowed updates, and never polls', async () => {
    r = await startGateway(tg, 'webhook');
    expect(r.gw.webhookListenUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/telegram\/webhook$/);
    expect(tg.callsOf('setWebhook')).toHaveLength(1);
    expect(tg.callsOf('setWebhook')[0]!.params).toMatchObject({
      url: r.gw.webhookListenUrl,
      secret_token: SECRET,
      allowed_updates: ['message', 'edited_message', 'guest_message'],
    });
    await r.deliver(textUpdate({ updateId: 1, text: 'via webhook' }));
    await r.waitForEvents(1);
    expect(tg.callsOf('getUpdates')).toHaveLength(0);
  });

  it('rejects requests without the right secret (401) and ingests nothing from them', async () => {
    r = await startGateway(tg, 'webhook');
    const wrong = await tg.deliverWebhook(textUpdate({ updateId: 1, text: 'forged' }), {
      secret: 'not-the-secret-0123456789',
    });
    const missing = await tg.deliverWebhook(textUpdate({ updateId: 2, text: 'forged too' }), { secret: null });
    expect([wrong.status, missing.status]).toEqual([401, 401]);
    await r.deliver(textUpdate({ updateId: 3, text: 'genuine' }));
    await r.waitForEvents(1);
    expect(r.events.map((e) => e.kind === 'message' && e.text)).toEqual(['genuine']);
  });

  it('answers 500 when the core fails, so Telegram delivers the update again', async () => {
    let failures = 1;
    r = await startGateway(tg, 'webhook', () =>
      failures-- > 0 ? Promise.reject(new Error('store down')) : Promise.resolve(),
    );
    const update = textUpdate({ updateId: 1, text: 'retry me' });
    expect((await tg.deliverWebhook(update)).status).toBe(500);
    expect((await tg.deliverWebhook(update)).status).toBe(200);
    expect(r.events).toHaveLength(1);
  });

  it('serves only POST on its path', async () => {
    r = await startGateway(tg, 'webhook');
    const url = r.gw.webhookListenUrl!;
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(url.replace('/telegram/webhook', '/other'), { method: 'POST', body: '{}' })).status).toBe(404);
    const badJson = await fetch(url, {
      method: 'POST',
      body: '{not json',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
    });
    expect(badJson.status).toBe(400);
    // The secret is checked before the body is read.
    expect((await fetch(url, { method: 'POST', body: '{not json' })).status).toBe(401);
  });

  it('answers 503 once stopped, so Telegram delivers the update again later', async () => {
    r = await startGateway(tg, 'webhook');
    await r.gw.stop();
    expect((await tg.deliverWebhook(textUpdate({ updateId: 1, text: 'while stopping' }))).status).toBe(503);
    expect(r.events).toHaveLength(0);
  });
});
