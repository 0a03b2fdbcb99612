// The remote services of the pipeline bench (the model, Telegram) as the tests fake them, but on
// a worker thread: a remote service's work never runs on the gateway's event loop, so the app's
// latency is measured without the fakes' JSON parsing and schema checks interleaved with it.
import { Worker } from 'node:worker_threads';
import { startFakeOpenAI, type ChatRequestBody } from '../test/doubles/fakeOpenAI.js';
import { startFakeTelegram } from '../test/doubles/fakeTelegram.js';
import { withTimeout } from './concurrency.js';

/** A chat request as the fake model received it (whole body read, before it was checked). */
export interface SeenLlmRequest {
  lastUser: string | undefined;
  last: string | undefined;
  receivedAt: number;
}

export type FakesMessage =
  | { kind: 'ready'; llmBaseURL: string; tgApiRoot: string }
  | { kind: 'requests'; requests: SeenLlmRequest[] }
  | { kind: 'closed' };

export interface BenchFakes {
  llmBaseURL: string;
  tgApiRoot: string;
  /** Chat requests seen so far (from a thread: forwarded every few ms). */
  readonly requests: readonly SeenLlmRequest[];
  close(): Promise<void>;
}

/**
 * The fakes on their own thread, answering 'ok'; with `reply` (a function cannot cross to a
 * thread) they run in this process instead.
 */
export function startBenchFakes(reply?: (body: ChatRequestBody) => string): Promise<BenchFakes> {
  if (process.env.FAKES_INPROC) return startInProcess(reply ?? (() => 'ok'));
  return reply ? startInProcess(reply) : startOnThread();
}

async function startInProcess(reply: (body: ChatRequestBody) => string): Promise<BenchFakes> {
  const llm = await startFakeOpenAI({ defaultReply: reply });
  const tg = await startFakeTelegram();
  return {
    llmBaseURL: llm.baseURL,
    tgApiRoot: tg.apiRoot,
    get requests() {
      return llm.requests.map((r) => ({
        lastUser: textOf(r.body.messages.findLast((m) => m.role === 'user')?.content),
        last: textOf(r.body.messages.at(-1)?.content),
        receivedAt: r.receivedAt,
      }));
    },
    async close() {
      await tg.close();
      await llm.close();
    },
  };
}

export function textOf(content: unknown): string | undefined {
  return typeof content === 'string' ? content : undefined;
}

async function startOnThread(): Promise<BenchFakes> {
  // Node 20 gives a thread no TypeScript loader: tsx loads the thread's module.
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport('./remoteFakesWorker.ts', ${JSON.stringify(import.meta.url)}))`;
  const worker = new Worker(boot, { eval: true });
  const requests: SeenLlmRequest[] = [];
  let closed: (() => void) | undefined;
  const ready = new Promise<{ llmBaseURL: string; tgApiRoot: string }>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: FakesMessage) => {
      if (m.kind === 'ready') resolve(m);
      else if (m.kind === 'requests') requests.push(...m.requests);
      else closed?.();
    });
  });
  const { llmBaseURL, tgApiRoot } = await withTimeout(ready, 30_000, 'the fakes thread to start');
  return {
    llmBaseURL,
    tgApiRoot,
    requests,
    async close() {
      const done = new Promise<void>((r) => (closed = r));
      worker.postMessage('close');
      await withTimeout(done, 10_000, 'the fakes thread to stop').catch(() => undefined);
      await worker.terminate();
    },
  };
}
