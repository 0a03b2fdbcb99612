// Rooms (SPEC §8): a round of three agents, each posting through its own Telegram bot, from the
// human's message to the last answer reaching the fake Bot API, next to one agent's answer in a
// one-agent room (and, for scale, as many single-agent turns one after another in private
// chats), on the same app, with an instant model. Telegram's pacing is kept as the app keeps it:
// each bot has its own budget, so the round should wait on nobody's. The round's database
// commands are sorted by the hot path's access rule (SPEC §3).
import { MongoClient, type Collection } from 'mongodb';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import { createRoom } from '../src/rooms/createRoom.js';
import type { Room, RoomRound } from '../src/domain/room.js';
import { startPipeline, type PipelineRig } from './pipeline.js';
import { oneTurn } from './turns.js';
import { CommandTally, withCommandMonitoring, type TallyCounts } from './commandTally.js';
import { memoryIdle } from './memoryIdle.js';
import { sleep } from './concurrency.js';
import { mergeCounts } from './roomsReport.js';

export interface RoomBenchResult {
  agents: number;
  /** Human message → the round's last answer received by the fake Bot API, ms. */
  rounds: number[];
  /** Human message → the answer of a one-agent room received by the fake Bot API, ms. */
  singles: number[];
  /** `agents` single-agent turns one after another (new private chats), total ms each time. */
  turnsInRow: number[];
  /** Commands of the counted rounds (post-turn memory jobs included), and how many rounds. */
  commands: TallyCounts;
  countedRounds: number;
}

/** An agent's own bot token (the fake Bot API takes any; the worker posts with it). */
const tokenOf = (i: number) => `70000030${i}:BENCH-agent-${i}-token_abcdefghijklmnop`;

export async function runRoomBench(o: {
  mongoUri: string;
  redisUrl: string;
  dbName: string;
  prefix: string;
  rounds: number;
  agents: number;
  progress(line: string): void;
}): Promise<RoomBenchResult> {
  const rig = await startPipeline({
    mongoUri: withCommandMonitoring(o.mongoUri),
    redisUrl: o.redisUrl,
    dbName: o.dbName,
    prefix: o.prefix,
    concurrency: 8,
    streamEditMs: 50,
  });
  // Rounds are confirmed over a connection of their own, so the reading is not counted.
  const watcher = await MongoClient.connect(o.mongoUri);
  const rounds = watcher.db(o.dbName).collection<RoomRound>('rounds');
  try {
    const at = new Date();
    const agentIds = Array.from({ length: o.agents }, (_, i) => `agt_bench_${i}`);
    for (const [i, id] of agentIds.entries()) {
      await rig.app.store.participants.createAgent(
        { _id: id, name: `Agent${i}`, basePersona: `You are Agent${i}.` },
        at,
      );
      await rig.app.store.agentBots.put({
        agentId: id,
        platform: 'telegram',
        token: tokenOf(i),
        account: { userId: String(700_000_300 + i) },
        updatedAt: at,
      });
    }
    const tally = new CommandTally(rig.app.store.client);
    const result: RoomBenchResult = {
      agents: o.agents,
      rounds: [],
      singles: [],
      turnsInRow: [],
      commands: tally.stop(),
      countedRounds: 0,
    };
    const warmup = 3;
    for (let i = -warmup; i < o.rounds; i++) {
      const counted = i >= 0;
      // Each in a new group: every bot's budget there starts full, as after a quiet while.
      const trio = await openRoom(rig, agentIds, 2 * (i + warmup));
      const solo = await openRoom(rig, agentIds.slice(0, 1), 2 * (i + warmup) + 1);
      if (counted) tally.start();
      const ms = await oneRound(rig, rounds, trio, agentIds.length);
      await memoryIdle(rig.memory, 10_000);
      if (counted) {
        result.rounds.push(ms);
        result.commands = mergeCounts(result.commands, tally.stop());
        result.countedRounds += 1;
      }
      const single = await oneRound(rig, rounds, solo, 1);
      await memoryIdle(rig.memory, 10_000);
      if (counted) result.singles.push(single);
      const t0 = performance.now();
      for (let k = 0; k < o.agents; k++) await oneTurn(rig, rig.newChat(), `bench single ${i} ${k}`);
      if (counted) result.turnsInRow.push(performance.now() - t0);
      await memoryIdle(rig.memory, 10_000);
    }
    o.progress(`rooms: ${result.countedRounds} rounds of ${o.agents} agents`);
    return result;
  } finally {
    await watcher.close();
    await rig.close();
  }
}

/** A room in a new group (not counted: operators create rooms, people do not). */
function openRoom(rig: PipelineRig, agentIds: string[], n: number): Promise<Room> {
  const chatId = String(-1_000_900_000_000 - n);
  return createRoom(
    rig.app.store,
    { chat: { platform: 'telegram', chatId }, name: `Bench ${n}`, mode: 'default', agentIds },
    new Date(),
  );
}

/**
 * One human message into the room: ms until the fake Bot API received every member's answer
 * (each by its own bot), once the round is confirmed complete with all of them.
 */
async function oneRound(rig: PipelineRig, rounds: Collection<RoomRound>, room: Room, agents: number): Promise<number> {
  const tokens = new Set(Array.from({ length: agents }, (_, i) => tokenOf(i)));
  const sent = () =>
    rig.tg.calls.filter(
      (c) => c.method === 'sendMessage' && tokens.has(c.token) && String(c.params.chat_id) === room.chat.chatId,
    );
  const t0 = Date.now();
  const r = await rig.send(groupEvent(room.chat.chatId, room.roundSeq));
  if (r.kind !== 'accepted') throw new Error(`bench: room message was ${r.kind}`);
  const deadline = t0 + 30_000;
  // Watched in this process (the fake's record), so waiting adds no load to the database.
  while (sent().length < agents) {
    if (Date.now() > deadline) throw new Error(`bench: room ${room._id} got ${sent().length} answers in 30 s`);
    await sleep(2);
  }
  const last = Math.max(...sent().map((c) => c.at));
  const id = `${room._id}.r1`;
  for (; Date.now() < deadline; await sleep(5)) {
    const round = await rounds.findOne({ _id: id });
    if (round?.completed) {
      if (round.answers.length !== agents) throw new Error(`bench: round ${id} ended ${round.endedBy}`);
      return last - t0;
    }
  }
  throw new Error(`bench: round ${id} did not complete in 30 s`);
}

let seq = 0;
function groupEvent(chatId: string, n: number): InboundEventInput {
  seq += 1;
  return {
    platform: 'telegram',
    chat: { chatId, kind: 'group' },
    platformMessageId: String(seq),
    sender: { userId: '777001', isBot: false, displayName: 'Bench Human', languageCode: 'en' },
    text: `bench room question ${n}`,
    sentAt: new Date(),
  };
}
