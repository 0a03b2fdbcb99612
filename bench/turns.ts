// Pipeline scenarios: sequential turns (one in flight) and a burst. Pre-LLM and ingest times are
// taken with performance.now() (the fake LLM runs in this process and records it too): a p50 of
// ~12 ms against a 10× target needs better than whole milliseconds. Stage times are Date.now()
// milliseconds, the clock the app stores (replyStartedAt, closedAt).
import type { FakeOpenAI } from '../test/doubles/fakeOpenAI.js';
import type { IngestResult } from '../src/ingest/ingest.js';
import type { Turn } from '../src/domain/model.js';
import type { PipelineRig } from './pipeline.js';
import { runPool, sleep } from './concurrency.js';
import { perSecond } from './stats.js';

export interface TurnTiming {
  /** handleInbound called → fake LLM received the request. */
  preLlm: number;
  /** handleInbound duration (validate, dedupe, store, resolve, enqueue). */
  ingest: number;
  /** handleInbound returned → turn.replyStartedAt (dequeue, dialogue lock, two reads). */
  toReplyStart: number;
  /** replyStartedAt → LLM request received (reply message, history, prompt, context event, HTTP). */
  toLlm: number;
  /** LLM request received → turn closed as responded (stream, persist, Telegram, events). */
  llmToResponded: number;
  /** handleInbound called → turn closed. */
  total: number;
}

export interface BurstResult {
  /** Per turn: handleInbound called → LLM request received, ms. */
  preLlm: number[];
  /** First handleInbound → last turn closed, ms. */
  spanMs: number;
  perSecond: number;
  /** Ingest rate alone: accepted turns ÷ (first handleInbound called → last one returned). */
  ingestPerSecond: number;
  /** Turns accepted (the rest failed in handleInbound and are counted in ingestErrors). */
  accepted: number;
  /** handleInbound calls that threw, by message (e.g. SQLITE_BUSY from FerretDB). */
  ingestErrors: Map<string, number>;
  /** Respond jobs that needed more than one attempt. */
  retriedJobs: number;
}

interface Received {
  /** Date.now() */
  at: number;
  /** performance.now() */
  precise: number;
}

/** When the fake LLM received the request whose last user message is `text`. */
function receivedAtIndex(llm: FakeOpenAI): Map<string, Received> {
  const index = new Map<string, Received>();
  for (const r of llm.requests) {
    const lastUser = r.body.messages.findLast((m) => m.role === 'user');
    if (typeof lastUser?.content === 'string')
      index.set(lastUser.content, { at: r.receivedAt, precise: r.receivedAtPrecise });
  }
  return index;
}

function must<T>(v: T | undefined | null, what: string): T {
  if (v === undefined || v === null) throw new Error(`bench: missing ${what}`);
  return v;
}

export interface OneTurnOptions {
  /** How the finished turn is read back (default: the app's store; another client keeps the read out of the app's command stream). */
  readTurn?: (turnId: string) => Promise<Turn | null>;
  /** How long the respond job may take (rig.finished's default otherwise). */
  finishTimeoutMs?: number;
}

/** One message into `chatId`, timed from handleInbound to the turn closed as responded. */
export async function oneTurn(
  rig: PipelineRig,
  chatId: string,
  text: string,
  o: OneTurnOptions = {},
): Promise<TurnTiming> {
  const t0 = Date.now();
  const p0 = performance.now();
  const r = await rig.send(rig.event(chatId, text));
  const p1 = performance.now();
  const t1 = Date.now();
  if (r.kind !== 'accepted') throw new Error(`bench: inbound was ${r.kind}, expected accepted`);
  await rig.finished(r.turnId, o.finishTimeoutMs);
  const turn = must(await (o.readTurn ?? ((id) => rig.app.store.turns.get(id)))(r.turnId), `turn ${r.turnId}`);
  if (turn.status !== 'responded' || turn.outcome !== 'complete')
    throw new Error(`bench: turn ${turn._id} ended ${turn.status}/${turn.outcome}`);
  const llm = must(receivedAtIndex(rig.llm).get(text), `LLM request for "${text}"`);
  const llmAt = llm.at;
  const started = must(turn.replyStartedAt, 'replyStartedAt').getTime();
  const closed = must(turn.closedAt, 'closedAt').getTime();
  return {
    preLlm: llm.precise - p0,
    ingest: p1 - p0,
    toReplyStart: started - t1,
    toLlm: llmAt - started,
    llmToResponded: closed - llmAt,
    total: closed - t0,
  };
}

/** n turns one after another; `sameChat` puts them all in one dialogue (history grows). */
export async function sequentialTurns(
  rig: PipelineRig,
  o: { label: string; n: number; warmup: number; sameChat: boolean },
): Promise<TurnTiming[]> {
  const shared = rig.newChat();
  const out: TurnTiming[] = [];
  for (let i = -o.warmup; i < o.n; i++) {
    const timing = await oneTurn(rig, o.sameChat ? shared : rig.newChat(), `bench ${o.label} ${i}`);
    if (i >= 0) out.push(timing);
  }
  return out;
}

/** n turns in n new chats, `producers` handleInbound calls in flight, until all are responded. */
export async function burstTurns(
  rig: PipelineRig,
  o: { label: string; n: number; producers: number; pollMs: number; timeoutMs: number },
): Promise<BurstResult> {
  const turns = rig.app.store.c.turns;
  const before = await turns.countDocuments({ status: 'responded' });
  const sentAt = new Map<string, number>();
  const turnIds: string[] = [];
  const first = Date.now();
  const ingestErrors = new Map<string, number>();
  await runPool(o.n, o.producers, async (i) => {
    const text = `bench ${o.label} ${i}`;
    const t0 = performance.now();
    let r: IngestResult;
    try {
      r = await rig.send(rig.event(rig.newChat(), text));
    } catch (err) {
      // Counted, not retried: a failed update is what the gateway would see too.
      const key = (err instanceof Error ? err.message : String(err)).replace(/^.*\] /, '').slice(0, 120);
      ingestErrors.set(key, (ingestErrors.get(key) ?? 0) + 1);
      return;
    }
    if (r.kind !== 'accepted') throw new Error(`bench: inbound was ${r.kind}, expected accepted`);
    sentAt.set(text, t0);
    turnIds.push(r.turnId);
  });
  const ingested = Date.now();
  if (turnIds.length === 0)
    throw new Error(`bench: no inbound event of the burst was accepted (${[...ingestErrors.keys()].join('; ')})`);

  const deadline = first + o.timeoutMs;
  while ((await turns.countDocuments({ status: 'responded' })) < before + turnIds.length) {
    if (Date.now() > deadline) throw new Error(`bench: burst not answered within ${o.timeoutMs} ms`);
    await sleep(o.pollMs);
  }
  // The poll only says "done"; the end time is the last close the app itself recorded.
  const closed = await turns.find({ _id: { $in: turnIds } }, { projection: { closedAt: 1, outcome: 1 } }).toArray();
  if (closed.some((t) => t.outcome !== 'complete')) throw new Error('bench: a burst turn did not complete');
  const last = Math.max(...closed.map((t) => must(t.closedAt, 'closedAt').getTime()));

  const received = receivedAtIndex(rig.llm);
  const preLlm = [...sentAt].map(([text, t0]) => must(received.get(text), `LLM request for "${text}"`).precise - t0);
  const spanMs = last - first;
  const accepted = turnIds.length;
  return {
    preLlm,
    spanMs,
    perSecond: perSecond(accepted, spanMs),
    ingestPerSecond: perSecond(accepted, ingested - first),
    accepted,
    ingestErrors,
    retriedJobs: await rig.retriedJobs(turnIds),
  };
}
