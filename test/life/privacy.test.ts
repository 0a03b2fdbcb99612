// 小红's secret: she tells the bot in her DM that she is pregnant and asks it to tell no one.
// Her friend 阿杰 has his own DM with the bot, and both are in the group 周末群 with it. Nothing
// of the secret may reach a prompt of the group — not even when 小红 herself asks the bot there
// what she told it — nor of 阿杰's DM, also after the agent's persona evolved with a model that
// writes people's secrets into it (the fake's leaky mode): the gateway's own check must hold.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { MINUTE, localTime } from '../support/simClock.js';
import { leakyEvolvePersona } from '../doubles/fakeTaskBrain.js';
import { BOT_USERNAME, LifeRig, type LifeTurn, type Person, type Place } from './lifeRig.js';
import { expectNoLeak, expectWithinBudget } from './lifeChecks.js';
import { defaultAgentId, maxTotalTokens } from './lifeApi.js';

const SCENARIO = '小红’s secret';
const START = Date.UTC(2026, 2, 2, 0, 0); // Monday 08:00 in UTC+8
const xiaohong: Person = { name: '小红', userId: 620_001, lang: 'zh-hans' };
const ajie: Person = { name: '阿杰', userId: 620_002, lang: 'zh-hans' };
const SECRET = '我怀孕了，这件事请先不要告诉任何人';
const NEEDLES = ['怀孕', '请先不要告诉任何人'];
const at = (day: number, hhmm: string): void => rig.clock.jumpTo(localTime(START, day, hhmm));

let rig: LifeRig;
let limit: number;
let group: Place;

beforeAll(async () => {
  rig = await LifeRig.start(SCENARIO, { start: START });
  limit = await maxTotalTokens(rig.h);
  group = rig.group(-100_620_000, '周末群');
});
afterAll(() => rig.stop());

async function say(who: Person, place: Place, text: string, answered = true): Promise<LifeTurn> {
  const turn = await rig.say(who, place, text, { answered });
  expectWithinBudget(SCENARIO, [turn], limit);
  return turn;
}

describe('小红 tells the bot a secret in her DM', () => {
  it('day 1: the secret is told and remembered; 阿杰 chats in his own DM', async () => {
    at(1, '20:00');
    await say(xiaohong, rig.dm(xiaohong), SECRET);
    await rig.untilRemembered('怀孕'); // learned, so it could leak
    at(1, '20:10');
    expectNoLeak(SCENARIO, [await say(ajie, rig.dm(ajie), '今天加班到好晚，累死了')], NEEDLES);
  });

  it('day 2: no prompt of the group holds it, even when 小红 asks there what she said', async () => {
    at(2, '10:00');
    const turns = [
      await say(ajie, group, '大家周末有空吗？', false),
      await say(xiaohong, group, `@${BOT_USERNAME} 周末大家一起去爬山好不好？`),
    ];
    rig.pause(2 * MINUTE);
    turns.push(await say(xiaohong, group, `@${BOT_USERNAME} 你还记得我昨天跟你说了什么吗？`));
    rig.pause(MINUTE);
    turns.push(await say(ajie, group, `@${BOT_USERNAME} 爬山要带什么？`));
    expectNoLeak(SCENARIO, turns, NEEDLES);
  });

  it('day 2: 阿杰’s DM never holds it', async () => {
    at(2, '12:00');
    expectNoLeak(SCENARIO, [await say(ajie, rig.dm(ajie), '周末爬山你觉得小红会去吗？')], NEEDLES);
  });

  it('day 3: after the persona evolved (leaky model), neither 阿杰’s DM nor the group holds it', async () => {
    at(3, '09:00');
    rig.leakyEvolve = true;
    const input = await rig.evolve(await defaultAgentId(rig.h));
    // The model was offered the secret and wrote it into the persona: the gateway's check is what is left.
    const offered = leakyEvolvePersona(input).evolvedPersona;
    rig.note(`the leaky evolve_persona answer holds the secret: ${offered.includes('怀孕')}`);
    at(3, '09:30');
    const turns = [await say(ajie, rig.dm(ajie), '早上好，今天有什么安排建议吗？')];
    rig.pause(5 * MINUTE);
    turns.push(await say(ajie, group, `@${BOT_USERNAME} 周六几点集合？`));
    rig.pause(5 * MINUTE);
    turns.push(await say(xiaohong, group, `@${BOT_USERNAME} 我们还需要准备什么？`));
    expectNoLeak(SCENARIO, turns, [...NEEDLES, '小红怀孕']);
  });
});
