// The fake model and the fake Telegram on a thread of their own (started by remoteFakes.ts): in a
// deployment both are remote, so their work must not run on the gateway's event loop.
import { parentPort } from 'node:worker_threads';
import { startFakeOpenAI } from '../test/doubles/fakeOpenAI.js';
import { startFakeTelegram } from '../test/doubles/fakeTelegram.js';
import { textOf, type FakesMessage, type SeenLlmRequest } from './remoteFakes.js';

const port = parentPort;
if (!port) throw new Error('remoteFakesWorker.ts runs as a worker thread');

const llm = await startFakeOpenAI({ defaultReply: () => 'ok' });
const tg = await startFakeTelegram();
let sent = 0;
// Each chat request as it arrives, summarised: the bench times turns by their last user message.
const forward = setInterval(() => {
  const fresh = llm.requests.slice(sent).map((r): SeenLlmRequest => ({
    lastUser: textOf(r.body.messages.findLast((m) => m.role === 'user')?.content),
    last: textOf(r.body.messages.at(-1)?.content),
    receivedAt: r.receivedAt,
  }));
  sent += fresh.length;
  if (fresh.length > 0) port.postMessage({ kind: 'requests', requests: fresh } satisfies FakesMessage);
}, 5);
// The fakes keep what they saw; the bench reads only the summaries.
const trim = setInterval(() => {
  llm.requests.splice(0, sent);
  sent = 0;
  tg.calls.splice(0);
}, 10_000);

port.on('message', (m: unknown) => {
  if (m !== 'close') return;
  clearInterval(forward);
  clearInterval(trim);
  void Promise.all([llm.close(), tg.close()]).then(() => port.postMessage({ kind: 'closed' } satisfies FakesMessage));
});
port.postMessage({ kind: 'ready', llmBaseURL: llm.baseURL, tgApiRoot: tg.apiRoot } satisfies FakesMessage);
