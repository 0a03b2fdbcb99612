// A companion's first days tried from outside, as a new user would (issue 33): the gateway as a
// real child process (`npm start`'s app/main.ts), fake Telegram and a fake model, a session gap
// of a few real seconds. It reads the prompts the model was sent:
// - after a pause longer than the gap, the reply's prompt holds the previous session's last
//   messages (and, once the idle close has summarised it, its summary);
// - what a person told the bot in their DM is absent from the group's prompts and from another
//   person's DM prompt, even after the persona evolved with a model that writes what it learned
//   about people into it.
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultRig, type FaultRig } from './faultRig.js';
import { PLACES, privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { freePort } from '../../src/localServices/reachability.js';
import { gqlRequest } from '../support/harness.js';
import { defaultTaskReply } from '../doubles/fakeTaskBrain.js';
import { eventually } from '../support/testEnv.js';
import type { RecordedRequest } from '../doubles/fakeOpenAI.js';
import type { Update } from 'grammy/types';

const GAP_MS = 3_000;
const BOT = 'fake_test_bot';
const XIAOHONG = 610_001;
const AJIE = 610_002;
const LAOZHOU = 610_003;
const SECRET = '我怀孕了，这件事请先不要告诉任何人';

/** A model that writes what it learned about people into the evolved persona, whatever it was told. */
function leakyTasks(task: string, system: string, input: string): string {
  if (task !== 'evolve_persona') return defaultTaskReply(task, system, input);
  const said = [...input.matchAll(/\] user \(([^)]*)\): (.*)$/gm)].map((m) => `${m[1]}说：${m[2]}`);
  return JSON.stringify({ evolvedPersona: `你变得更体贴了。你了解到：${said.join('；')}。` });
}

let rig: FaultRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

const promptText = (r: RecordedRequest): string =>
  JSON.stringify('messages' in r.body ? r.body.messages : r.body.input);

describe('a new user over the real process', () => {
  it(
    'keeps the thread across a pause, and a DM secret out of the group and out of another DM',
    { timeout: 150_000 },
    async () => {
      const port = await freePort();
      rig = await startFaultRig({
        env: {
          SESSION_GAP_MS: String(GAP_MS),
          PORT: String(port),
          DEFAULT_LOCALE: 'zh-CN',
        },
        llm: { taskReply: leakyTasks },
      });
      const r = rig;
      const gql = (query: string, variables: Record<string, unknown> = {}) =>
        gqlRequest(`http://127.0.0.1:${port}/graphql`, query, variables);
      const set = await gql(
        'mutation { updateConfig(patch: { thresholds: { persona_evolve_every_turns: 3 } }) { version } }',
      );
      expect(set.body.errors).toBeUndefined();

      let messageId = 0;
      /** Sends one message and returns the reply prompt the model got for it. */
      const say = async (update: (id: number) => Update, what: string): Promise<string> => {
        const before = r.llm.requests.length;
        messageId += 10;
        r.tg.pushUpdate(update(messageId));
        const req = await eventually(() => Promise.resolve(r.llm.requests[before]), 20_000, `the reply to ${what}`);
        // Answered before the next message, so each message is its own turn.
        await eventually(
          async () => (await r.db.collection('turns').countDocuments({ status: 'pending' })) === 0,
          20_000,
          `the turn of ${what} closed`,
        );
        return promptText(req);
      };
      const dm = (chatId: number, firstName: string, text: string) =>
        say((id) => privateText({ updateId: r.nextUpdateId(), messageId: id, chatId, firstName, text }), text);
      const inGroup = (userId: number, firstName: string, text: string) =>
        say(
          (id) =>
            textUpdate({ updateId: r.nextUpdateId(), messageId: id, place: PLACES.group, userId, firstName, text }),
          text,
        );

      // 小红's DM: a secret, then a pause longer than the session gap.
      await dm(XIAOHONG, '小红', '我下午三点要去看牙医，有点紧张，祝我好运吧');
      await dm(XIAOHONG, '小红', SECRET);
      await new Promise((res) => setTimeout(res, GAP_MS + 1_500));
      const afterPause = await dm(XIAOHONG, '小红', '搞定了！一点都不疼');
      expect(afterPause, 'the prompt after the pause carries the previous session').toContain('看牙医');
      expect(afterPause).toContain('[Previous conversation]');

      // The group: 小红 and 阿杰 with the bot. Nothing of her DM reaches it.
      const groupPrompts = [
        await inGroup(AJIE, '阿杰', `@${BOT} 大家好，我是阿杰`),
        await inGroup(XIAOHONG, '小红', `@${BOT} 周末大家一起去爬山好不好？`),
        await inGroup(XIAOHONG, '小红', `@${BOT} 你还记得我昨天跟你说了什么吗？`),
      ];
      for (const p of groupPrompts) {
        expect(p, 'a group prompt holds the DM secret').not.toContain('怀孕');
        expect(p).not.toContain('看牙医');
      }

      // The persona evolves (every 3 replies) with a model that writes people's words into it.
      await eventually(
        () => Promise.resolve(r.llm.taskRequests.some((t) => t.task === 'evolve_persona') || undefined),
        20_000,
        'a persona evolution',
      );
      await eventually(
        async () =>
          ((await r.db.collection('agents').findOne({ isDefault: true })) as { evolvedPersona?: string } | null)
            ?.evolvedPersona ?? undefined,
        20_000,
        'the evolved persona stored',
      );
      // A new person's first DM prompt, and 阿杰's, hold none of it.
      for (const p of [await dm(LAOZHOU, '老周', '你好，第一次来'), await dm(AJIE, '阿杰', '在吗？')]) {
        expect(p, "another person's DM prompt holds the secret").not.toContain('怀孕');
        expect(p).not.toContain('小红');
      }
      // 小红's own DM still has her thread.
      expect(await dm(XIAOHONG, '小红', '谢谢你一直陪我')).toContain('搞定了');
    },
  );
});
