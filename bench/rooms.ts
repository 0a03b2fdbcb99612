// Rooms (SPEC §8): one round of four agents with an instant model, from the human's message to
// the last answer, next to four single-agent turns one after another on the same app, and the
// database commands a round sends, sorted by the hot path's access rule (SPEC §3). Platform
// pacing is lifted (a group allows 20 messages a minute; four answers would wait for it), so the
// numbers are the pipeline's own.
import { MongoClient, type Collection } from 'mongodb';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import { createRoom } from '../src/rooms/createRoom.js';
import type { Room, RoomRound } from '../src/domain/room.js';
import { startPipeline, type PipelineRig } from './pipeline.js';
import { oneTurn } from './turns.js';
import { CommandTally, withCommandMonitoring, type TallyCounts } from './commandTally.js';
import { memoryIdle } from './memoryIdle.js';
import { sleep } from './concurrency.js';
import { fmt, table } from './report.js';
import { summarize } from './stats.js';

export interface RoomBenchResult {
  agents: number;
  /** Human message → last answer of the round, ms. */
  rounds: number[];
  /** `agents` single-agent turns one after another (new private chats), total ms each time. */
  singles: number[];
  /** Commands of the counted rounds (post-turn memory jobs included), and how many rounds. */
  commands: TallyCounts;
  countedRounds: number;
}

const UNPACED = { perSecond: 100_000, burst: 100_000 };

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
    telegramPerSecond: 1000,
    extensions: { platformLimits: { telegram: { privateChat: UNPACED, groupChat: UNPACED, global: UNPACED } } },
  });
  // Rounds are awaited over a connection of their own, so the waiting is not counted.
  const watcher = await MongoClient.connect(o.mongoUri);
  const rounds = watcher.db(o.dbName).collection<RoomRound>('rounds');
  try {
    const at = new Date();
    const agentIds = Array.from({ length: o.agents }, (_, i) => `agt_bench_${i}`);
    for (const [i, id] of agentIds.entries())
      await rig.app.store.participants.createAgent(
        { _id: id, name: `Agent${i}`, basePersona: `You are Agent${i}.` },
        at,
      );
    const tally = new CommandTally(rig.app.store.client);
    const result: RoomBenchResult = {
      agents: o.agents,
      rounds: [],
      singles: [],
      commands: tally.stop(),
      countedRounds: 0,
    };
    const warmup = 3;
    for (let i = -warmup; i < o.rounds; i++) {
      const counted = i >= 0;
      const room = await openRoom(rig, agentIds, i + warmup);
      if (counted) tally.start();
      const ms = await oneRound(rig, rounds, room, agentIds.length);
      await memoryIdle(rig.memory, 10_000);
      if (counted) {
        result.rounds.push(ms);
        result.commands = mergeCounts(result.commands, tally.stop());
        result.countedRounds += 1;
      }
      const t0 = performance.now();
      for (let k = 0; k < o.agents; k++) await oneTurn(rig, rig.newChat(), `bench single ${i} ${k}`);
      if (counted) result.singles.push(performance.now() - t0);
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

/** One human message into the room, until its round has completed. */
async function oneRound(rig: PipelineRig, rounds: Collection<RoomRound>, room: Room, agents: number): Promise<number> {
  const t0 = Date.now();
  const r = await rig.send(groupEvent(room.chat.chatId, room.roundSeq));
  if (r.kind !== 'accepted') throw new Error(`bench: room message was ${r.kind}`);
  const id = `${room._id}.r1`;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(2)) {
    const round = await rounds.findOne({ _id: id });
    if (round?.completed) {
      if (round.answers.length !== agents) throw new Error(`bench: round ${id} ended ${round.endedBy}`);
      return (round.completedAt?.getTime() ?? Date.now()) - t0;
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

function mergeCounts(a: TallyCounts, b: TallyCounts): TallyCounts {
  const add = (x: Map<string, number>, y: Map<string, number>) => {
    const out = new Map(x);
    for (const [k, v] of y) out.set(k, (out.get(k) ?? 0) + v);
    return out;
  };
  return {
    byKind: {
      idOnly: add(a.byKind.idOnly, b.byKind.idOnly),
      other: add(a.byKind.other, b.byKind.other),
      ignored: add(a.byKind.ignored, b.byKind.ignored),
    },
    otherShapes: add(a.otherShapes, b.otherShapes),
  };
}

export function roomTables(r: RoomBenchResult): string[] {
  const round = summarize(r.rounds);
  const singles = summarize(r.singles);
  const per = (v: number) => fmt(v / Math.max(1, r.countedRounds));
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const shapes = [...r.commands.otherShapes].sort((a, b) => b[1] - a[1]);
  return [
    table(
      ['measure', `round of ${r.agents} agents`, `${r.agents} single-agent turns in a row`, 'ratio'],
      [
        ['p50 (ms)', fmt(round.p50), fmt(singles.p50), `${fmt(round.p50 / singles.p50)}×`],
        ['p99 (ms)', fmt(round.p99), fmt(singles.p99), `${fmt(round.p99 / singles.p99)}×`],
      ],
    ),
    '',
    `Database commands per round (${r.countedRounds} rounds, post-turn memory jobs included): ${per(sum(r.commands.byKind.idOnly))} by _id only (and inserts), ${per(sum(r.commands.byKind.other))} other.`,
    ...(shapes.length > 0
      ? [
          '',
          table(
            ['other command shape', 'per round'],
            shapes.map(([s, c]) => [`\`${s}\``, per(c)]),
          ),
        ]
      : []),
  ];
}
