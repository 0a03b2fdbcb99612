// The web channel (SPEC §12): what it adds before the model's first token, against the same
// pipeline fed by handleInbound directly (a Telegram-shaped event, as bench/turns.ts does), and
// how soon the stream's first byte reaches the client. Each turn opens a new conversation (the
// pipeline's "new chat each"); the fake model answers at once, so its own time to first token is
// about zero and the first byte is the gateway's whole share (seed 004 asks < 3 s, issue 15
// 300 ms plus the model's TTFT).
import { randomBytes } from 'node:crypto';
import { startPipeline, type PipelineRig } from './pipeline.js';
import { oneTurn } from './turns.js';
import { memoryIdle } from './memoryIdle.js';
import { fmt, table } from './report.js';
import { summarize } from './stats.js';

export interface WebBenchResult {
  turns: number;
  /** POST message → the fake model received the request, ms. */
  webPreLlm: number[];
  /** POST message → first byte of the event stream, ms. */
  webFirstByte: number[];
  /** POST message → message_complete read, ms. */
  webTotal: number[];
  /** handleInbound → the fake model received the request, ms (the pipeline's pre-LLM). */
  directPreLlm: number[];
}

/** One message over HTTP; resolves with when the first byte and the last event arrived. */
async function postAndRead(
  base: string,
  token: string,
  conversationId: string,
  content: string,
): Promise<{ firstByte: number; done: number }> {
  const res = await fetch(`${base}/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  if (res.status !== 200 || !res.body) throw new Error(`bench: web message answered ${res.status}`);
  const reader = res.body.getReader();
  let firstByte = 0;
  let text = '';
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    firstByte ||= Date.now();
    text += decoder.decode(value, { stream: true });
  }
  if (!text.includes('event: message_complete')) throw new Error(`bench: the web stream ended without completing`);
  return { firstByte, done: Date.now() };
}

async function newConversation(base: string, token: string): Promise<string> {
  const res = await fetch(`${base}/api/conversations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (res.status !== 201) throw new Error(`bench: creating a conversation answered ${res.status}`);
  return String(((await res.json()) as { id: string }).id);
}

const receivedAt = (rig: PipelineRig, text: string): number => {
  const r = rig.llm.requests.findLast((q) => q.body.messages.at(-1)?.content === text);
  if (!r) throw new Error(`bench: no LLM request for "${text}"`);
  return r.receivedAt;
};

export async function runWebBench(o: {
  mongoUri: string;
  redisUrl: string;
  dbName: string;
  prefix: string;
  turns: number;
  warmup: number;
  progress(line: string): void;
}): Promise<WebBenchResult> {
  const token = randomBytes(18).toString('hex');
  const rig = await startPipeline({
    mongoUri: o.mongoUri,
    redisUrl: o.redisUrl,
    dbName: o.dbName,
    prefix: o.prefix,
    concurrency: 8,
    streamEditMs: 50,
    telegramPerSecond: 1000,
    apiToken: token,
  });
  const base = rig.app.apiUrl;
  if (!base) throw new Error('bench: the api role did not start');
  const r: WebBenchResult = { turns: o.turns, webPreLlm: [], webFirstByte: [], webTotal: [], directPreLlm: [] };
  try {
    o.progress(`web: ${o.turns} messages over HTTP, each in a new conversation, and as many through handleInbound`);
    for (let i = -o.warmup; i < o.turns; i++) {
      // Alternated, so drift in the database's speed affects both sides alike.
      const conversation = await newConversation(base, token);
      const text = `bench web ${i}`;
      const t0 = Date.now();
      const { firstByte, done } = await postAndRead(base, token, conversation, text);
      await memoryIdle(rig.memory, 10_000); // each turn alone, its memory jobs done
      const direct = await oneTurn(rig, rig.newChat(), `bench direct ${i}`);
      await memoryIdle(rig.memory, 10_000);
      if (i < 0) continue;
      r.webPreLlm.push(receivedAt(rig, text) - t0);
      r.webFirstByte.push(firstByte - t0);
      r.webTotal.push(done - t0);
      r.directPreLlm.push(direct.preLlm);
    }
    return r;
  } finally {
    await rig.close();
  }
}

export function webTable(r: WebBenchResult): string {
  const direct = summarize(r.directPreLlm);
  const row = (measure: string, samples: number[], against?: typeof direct) => {
    const s = summarize(samples);
    return [
      measure,
      fmt(s.p50),
      fmt(s.p99),
      against ? `${fmt(s.p50 / against.p50)}× / ${fmt(s.p99 / against.p99)}×` : '–',
    ];
  };
  return table(
    ['measure (ms, new conversation each)', 'p50', 'p99', 'ratio to handleInbound pre-LLM (p50 / p99)'],
    [
      row('pre-LLM, handleInbound (the pipeline)', r.directPreLlm),
      row('pre-LLM, web POST /messages', r.webPreLlm, direct),
      row('first byte of the stream (model TTFT ≈ 0)', r.webFirstByte, direct),
      row('message_complete read', r.webTotal),
    ],
  );
}

export const webNotes = (r: WebBenchResult): string[] => [
  `n = ${r.turns} each. The web's pre-LLM adds HTTP, the token check and the conversation read to the pipeline's; its conversation (person and dialogue) exists before the timed POST, while a new Telegram chat's timed ingest creates them.`,
  'The first byte waits for the first stored text (the status depends on it: a reply failing before any text is answered 502/504 as JSON).',
];
