// 林夏 and Tom confide in the bot in their DMs (林夏: quitting in secret, a depression she is
// treated for; Tom, in English: interviewing elsewhere). The agent's persona then evolves with
// a model that writes such things into it (the fake's leaky mode). 老周, a newcomer, must find
// none of it in his prompts. Then 林夏 is deleted (BR-006, `deletePerson`): from then on no
// prompt of any chat — nor the next evolution's input — holds what was learned from her.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { MINUTE, localTime } from '../support/simClock.js';
import { LifeRig, type LifeTurn, type Person, type Place } from './lifeRig.js';
import { expectNoLeak, expectWithinBudget, leaks, report } from './lifeChecks.js';
import { defaultAgentId, deletePerson, maxTotalTokens } from './lifeApi.js';

const SCENARIO = '林夏’s and Tom’s secrets';
const START = Date.UTC(2026, 2, 2, 0, 0); // Monday 08:00 in UTC+8
const linxia: Person = { name: '林夏', userId: 640_001, lang: 'zh-hans' };
const tom: Person = { name: 'Tom', userId: 640_002, lang: 'en' };
const laozhou: Person = { name: '老周', userId: 640_003, lang: 'zh-hans' };
const LINXIA_FACTS = ['辞职', '抑郁', '舍曲林', '林夏'];
const TOM_FACTS = ['interviewing at another company'];
const at = (day: number, hhmm: string): void => rig.clock.jumpTo(localTime(START, day, hhmm));

let rig: LifeRig;
let limit: number;
let agentId: string;

beforeAll(async () => {
  rig = await LifeRig.start(SCENARIO, { start: START });
  limit = await maxTotalTokens(rig.h);
  agentId = await defaultAgentId(rig.h);
});
afterAll(() => rig.stop());

async function say(who: Person, place: Place, text: string): Promise<LifeTurn> {
  const turn = await rig.say(who, place, text);
  expectWithinBudget(SCENARIO, [turn], limit);
  return turn;
}

describe('secrets told in DMs stay with their people', () => {
  it('day 1: 林夏 and Tom confide; both are remembered', async () => {
    at(1, '21:00');
    await say(linxia, rig.dm(linxia), '我在偷偷准备辞职');
    rig.pause(3 * MINUTE);
    await say(linxia, rig.dm(linxia), '我最近确诊了抑郁症，在吃舍曲林，家里人都不知道');
    at(1, '21:30');
    await say(tom, rig.dm(tom), "I'm secretly interviewing at another company, please don't tell anyone.");
    await rig.untilRemembered('舍曲林');
    await rig.untilRemembered('interviewing');
  });

  it('day 2: after a leaky evolution, 老周’s first DM prompts hold none of it', async () => {
    at(2, '09:00');
    rig.leakyEvolve = true;
    await rig.evolve(agentId);
    at(2, '10:00');
    const turns = [await say(laozhou, rig.dm(laozhou), '你好，我是老周，第一次来聊天')];
    rig.pause(5 * MINUTE);
    turns.push(await say(laozhou, rig.dm(laozhou), '最近工作压力好大，你有什么建议吗？'));
    expectNoLeak(SCENARIO, turns, [...LINXIA_FACTS, ...TOM_FACTS]);
  });

  it('day 3: after deletePerson(林夏) no prompt of any chat holds her facts', async () => {
    at(3, '09:00');
    const from = rig.turns.length;
    await deletePerson(rig.h, await rig.humanOf(linxia));
    await rig.settle();
    await say(laozhou, rig.dm(laozhou), '早上好，今天天气不错');
    rig.pause(5 * MINUTE);
    await say(tom, rig.dm(tom), 'Morning! Any tips for staying focused today?');
    rig.pause(5 * MINUTE);
    await say(linxia, rig.dm(linxia), '你好，还记得我吗？');
    expectNoLeak(SCENARIO, rig.turnsSince(from), LINXIA_FACTS.slice(0, 3));
    // What the model is given to evolve the persona is a prompt too.
    at(3, '10:00');
    const input = await rig.evolve(agentId);
    const task = {
      label: 'day 3 10:00, the next evolve_persona task',
      prompts: [{ source: 'wire' as const, text: input }],
    };
    report(SCENARIO, leaks(task, LINXIA_FACTS.slice(0, 3)));
  });
});
