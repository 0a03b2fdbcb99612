// 小红 links her Telegram account to the web. What she tells the bot in her Telegram DM (she is
// pregnant, and asks it to tell no one) may reach the prompts of her linked web conversation,
// but never those of a room where the same agent sits with another one (读书会), nor of a plain
// group (周末群) — not even when she asks there what she told it, and not after the agent's
// persona evolved with a model that writes secrets into it (the fake's leaky mode).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { MINUTE, localTime } from '../support/simClock.js';
import { BOT_USERNAME, LifeRig, type LifeTurn, type Person, type Place } from './lifeRig.js';
import { expectNoLeak, expectWithinBudget } from './lifeChecks.js';
import { createAgent, createRoom, defaultAgentId, maxTotalTokens } from './lifeApi.js';

const SCENARIO = '小红 on the web, in a room and a group';
const START = Date.UTC(2026, 2, 2, 0, 0); // Monday 08:00 in UTC+8
const xiaohong: Person = { name: '小红', userId: 630_001, lang: 'zh-hans' };
const ajie: Person = { name: '阿杰', userId: 630_002, lang: 'zh-hans' };
const NEEDLES = ['怀孕', '请先不要告诉任何人'];
const at = (day: number, hhmm: string): void => rig.clock.jumpTo(localTime(START, day, hhmm));

let rig: LifeRig;
let limit: number;
let web: Place;
let room: Place;
let group: Place;
let agentId: string;

beforeAll(async () => {
  rig = await LifeRig.start(SCENARIO, { start: START });
  limit = await maxTotalTokens(rig.h);
  const xing = await createAgent(rig.h, '小星', '你是小星，读书会里爱推荐科幻小说的朋友。');
  agentId = await defaultAgentId(rig.h);
  await createRoom(rig.h, { chatId: -100_630_000, name: '读书会', agentIds: [agentId, xing] });
  room = rig.group(-100_630_000, '读书会 (room)');
  group = rig.group(-100_630_001, '周末群');
});
afterAll(() => rig.stop());

async function say(who: Person, place: Place, text: string): Promise<LifeTurn> {
  const turn = await rig.say(who, place, text);
  expectWithinBudget(SCENARIO, [turn], limit);
  return turn;
}

describe('a secret told on Telegram, a linked web identity, a room and a group', () => {
  it('day 1: 小红 links the web, tells her secret in the DM, talks on the web', async () => {
    at(1, '19:00');
    web = await rig.linkWeb(xiaohong);
    at(1, '19:05');
    await say(xiaohong, rig.dm(xiaohong), '我怀孕了，这件事请先不要告诉任何人');
    await rig.untilRemembered('怀孕');
    at(1, '19:10');
    const onWeb = await say(xiaohong, web, '我最近总是很累，你知道为什么吗？');
    // Allowed either way (her own linked conversation); said for the record.
    rig.note(`her web prompt holds the secret: ${onWeb.prompts.some((p) => p.text.includes('怀孕'))}`);
  });

  it('day 2: after a leaky evolution, no prompt of the room (two agents) holds it', async () => {
    // The agent that knows her secret sits in the room: neither its memories nor its persona may carry it there.
    at(2, '09:00');
    rig.leakyEvolve = true;
    await rig.evolve(agentId);
    at(2, '10:00');
    const turns = [await say(xiaohong, room, '大家推荐一本适合周末读的书吧')];
    rig.pause(2 * MINUTE);
    turns.push(await say(xiaohong, room, '你们还记得我跟你们说过什么吗？'));
    expectNoLeak(SCENARIO, turns, NEEDLES);
  });

  it('day 2: no prompt of the group holds it, even when she asks what she said', async () => {
    at(2, '11:00');
    const turns = [await say(xiaohong, group, `@${BOT_USERNAME} 你还记得我昨天跟你说了什么吗？`)];
    rig.pause(MINUTE);
    turns.push(await say(ajie, group, `@${BOT_USERNAME} 小红最近怎么样？`));
    expectNoLeak(SCENARIO, turns, NEEDLES);
  });
});
