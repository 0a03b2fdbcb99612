// Rooms whose agents each post through their own Telegram bot, against the fake Bot API: agents
// made and bound to their bots over GraphQL (as an operator does), rooms in fresh groups, a
// human's message, and what each bot sent as the fake saw it (when, into which chat).
import type { UserFromGetMe } from 'grammy/types';
import { expect } from 'vitest';
import type { Harness } from './harness.js';
import { eventually } from './testEnv.js';
import { textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import type { Room, RoomRound } from '../../src/domain/room.js';
import { isLimitedMethod } from '../doubles/fakeTelegramRateLimits.js';

export const ROOM_BOTS = {
  aria: { token: '700000201:ARIA-pace-token_abcdefghijklmnopq', user: { id: 700_000_201, first_name: 'Aria' } },
  bo: { token: '700000202:BO-pace-token_abcdefghijklmnopqrs', user: { id: 700_000_202, first_name: 'Bo' } },
  cy: { token: '700000203:CY-pace-token_abcdefghijklmnopqrs', user: { id: 700_000_203, first_name: 'Cy' } },
  dee: { token: '700000204:DEE-pace-token_abcdefghijklmnopq', user: { id: 700_000_204, first_name: 'Dee' } },
} as const;
export type BotKey = keyof typeof ROOM_BOTS;

/** The fake's `bots` option: every agent bot's identity by token. */
export const fakeBots = (): Record<string, Partial<UserFromGetMe>> =>
  Object.fromEntries(
    Object.values(ROOM_BOTS).map((b) => [
      b.token,
      { ...b.user, username: `${b.user.first_name.toLowerCase()}_pace_bot` },
    ]),
  );

/** Creates each agent and binds its bot over GraphQL; resolves once every bot polls. */
export async function bindAgents(h: Harness, keys: readonly BotKey[]): Promise<Record<BotKey, string>> {
  const ids: Partial<Record<BotKey, string>> = {};
  for (const key of keys) {
    const name = ROOM_BOTS[key].user.first_name;
    const made = await h.gql<{ createAgent: { id: string } }>(
      'mutation($n: String!, $p: String!) { createAgent(name: $n, basePersona: $p) { id } }',
      { n: name, p: `You are ${name}.` },
    );
    const id = made.body.data!.createAgent.id;
    const bound = await h.gql(
      'mutation($a: ID!, $t: String!) { setAgentBot(agentId: $a, platform: telegram, token: $t) { userId } }',
      { a: id, t: ROOM_BOTS[key].token },
    );
    expect(bound.body.errors).toBeUndefined();
    ids[key] = id;
  }
  await eventually(
    () =>
      Promise.resolve(
        keys.every((k) => h.tg.calls.some((c) => c.token === ROOM_BOTS[k].token && c.method === 'getUpdates')) ||
          undefined,
      ),
    10_000,
    'agent bots polling',
  );
  return ids as Record<BotKey, string>;
}

export const openRoom = (h: Harness, chatId: number, agentIds: string[]): Promise<Room> =>
  createRoom(
    h.app.store,
    { chat: { platform: 'telegram', chatId: String(chatId) }, name: `Room ${chatId}`, mode: 'default', agentIds },
    new Date(),
  );

let updateId = 60_000;
/** A human's message into the group, as every bot in it receives it; returns when it was pushed. */
export function humanSays(h: Harness, chatId: number, text: string): number {
  updateId += 1;
  const at = Date.now();
  // A chat numbers its messages in order (the fake too): room for the bots' answers in between.
  const messageId = updateId * 1_000;
  h.tg.pushUpdate(
    textUpdate({
      updateId,
      messageId,
      place: { kind: 'group', chatId, title: 'Pace' },
      userId: 4242,
      firstName: 'Lin',
      text,
    }),
  );
  return at;
}

/** The room's round `seq` once completed. */
export const roundDone = (h: Harness, room: Room, seq: number, timeoutMs = 20_000): Promise<RoomRound> =>
  eventually(
    async () => {
      const r = await h.app.store.rooms.getRound(`${room._id}.r${seq}`);
      return r?.completed ? r : undefined;
    },
    timeoutMs,
    `round ${seq} of ${room._id}`,
  );

/** When the fake received each bot's first sendMessage into the chat after `since` (a bot that sent none is missing). */
export function firstSends(h: Harness, chatId: number, keys: readonly BotKey[], since: number): Map<BotKey, number> {
  const out = new Map<BotKey, number>();
  for (const key of keys) {
    const call = h.tg.calls.find(
      (c) =>
        c.token === ROOM_BOTS[key].token &&
        c.method === 'sendMessage' &&
        String(c.params.chat_id) === String(chatId) &&
        c.at >= since,
    );
    if (call) out.set(key, call.at);
  }
  return out;
}

/** Arrival times of every call of this bot that counts against the chat's limits (messages, edits, chat actions…). */
export const limitedCalls = (h: Harness, token: string, chatId: number): number[] =>
  h.tg.calls
    .filter((c) => c.token === token && String(c.params.chat_id) === String(chatId) && isLimitedMethod(c.method))
    .map((c) => c.at);

/** The most of `times` (ascending) that fall within any window of `windowMs` (a sliding window, as the platform counts). */
export function mostInWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
