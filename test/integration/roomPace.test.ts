// A room's pace when each agent posts through its own Telegram bot (each bot has its own sending
// budget, as Telegram limits each bot on its own): through grammY and the fake Bot API, with an
// instant model. (a) A round of three agents against one agent's answer, in the same run.
// (b) A burst of rounds: what each bot sends into the group per minute, as the fake counts it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import {
  ROOM_BOTS,
  bindAgents,
  fakeBots,
  firstSends,
  humanSays,
  limitedCalls,
  median,
  mostInWindow,
  openRoom,
  roundDone,
  type BotKey,
} from '../support/roomBotsRig.js';
import { telegramLimits } from '../../adapters/telegram/platform.js';
import type { BucketRate, PlatformLimits } from '../../src/platforms/platform.js';

const TRIO: readonly BotKey[] = ['aria', 'bo', 'cy'];
/** Telegram: 20 messages a minute per bot in a group (Bots FAQ); the fake enforces it per bot. */
const GROUP_PER_MINUTE = 20;

describe('room pace: a round of three against one answer', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline', AGENT_BOTS_REFRESH_MS: '200' }, ['gateway', 'worker', 'api'], {
      telegram: { bots: fakeBots(), rateLimits: { groupPerMinute: GROUP_PER_MINUTE } },
      openai: { defaultReply: () => 'Sure.' },
    });
  });
  afterEach(() => h.stop());

  it('each further answer of a round comes within 1.5× a single answer’s time: no bot waits on another’s budget', async () => {
    const ids = await bindAgents(h, [...TRIO, 'dee']);
    const rounds: number[] = [];
    const singles: number[] = [];
    const gaps: number[] = [];
    // Each repetition in new groups: a human does not ask a room twice a second, and a fresh
    // group starts every bot's budget full, as a room does after a quiet while. The first is warm-up.
    for (let rep = 0; rep < 6; rep++) {
      const solo = -4_100_500_000 - rep;
      const trio = -4_100_600_000 - rep;
      const soloRoom = await openRoom(h, solo, [ids.dee]);
      const trioRoom = await openRoom(
        h,
        trio,
        TRIO.map((k) => ids[k]),
      );
      const timeSolo = async (): Promise<number[]> => {
        const t0 = humanSays(h, solo, `Dee, a question ${rep}?`);
        await roundDone(h, soloRoom, 1);
        const at = await eventually(() => Promise.resolve(firstSends(h, solo, ['dee'], t0).get('dee')), 5_000);
        return [at - t0];
      };
      // When each answer reached the fake, from the human's message, in answering order.
      const timeTrio = async (): Promise<number[]> => {
        const t0 = humanSays(h, trio, `Everyone, a question ${rep}?`);
        const round = await roundDone(h, trioRoom, 1);
        expect(round.answers.map((a) => a.agentId)).toEqual(TRIO.map((k) => ids[k]));
        const sent = await eventually(() => {
          const s = firstSends(h, trio, TRIO, t0);
          return Promise.resolve(s.size === TRIO.length ? s : undefined);
        }, 5_000);
        return TRIO.map((k) => sent.get(k)! - t0);
      };
      // Alternate which goes first, so a drift of the machine's speed favours neither.
      let single: number[];
      let round: number[];
      if (rep % 2 === 0) [single, round] = [await timeSolo(), await timeTrio()];
      else [round, single] = [await timeTrio(), await timeSolo()];
      if (rep === 0) continue;
      singles.push(single[0]!);
      rounds.push(round.at(-1)!);
      gaps.push(...round.slice(1).map((t, i) => t - round[i]!));
    }
    const ratio = median(rounds) / median(singles);
    console.log(
      `[roomPace] human message → last of 3 answers: median ${median(rounds)} ms (${rounds.join(', ')}); ` +
        `→ a single answer: median ${median(singles)} ms (${singles.join(', ')}); ratio ${ratio.toFixed(2)}; ` +
        `one answer → the next in the round: median ${median(gaps)} ms (${gaps.join(', ')})`,
    );
    // No bot went over Telegram's limits on the way.
    expect(h.tg.tooManyRequests).toBe(0);
    // The asks are one after another (each agent reads the answers before it), so a round of
    // three costs the pipeline three times; what must not add up is waiting for a budget, which
    // at a group's pace (a token every 3.3 s) would dwarf these.
    expect(median(gaps)).toBeLessThanOrEqual(1.5 * median(singles));
    expect(ratio).toBeLessThanOrEqual(1 + 1.5 * (TRIO.length - 1));
  }, 90_000);
});

/** Telegram's budgets as the code keeps them, run `scale`× faster (rates up, bursts as they are). */
function scaledLimits(scale: number): PlatformLimits {
  const real = telegramLimits();
  const faster = (r: BucketRate): BucketRate => ({ perSecond: r.perSecond * scale, burst: r.burst });
  return { privateChat: faster(real.privateChat), groupChat: faster(real.groupChat), global: faster(real.global) };
}

describe('room pace: a burst of rounds stays within each bot’s group limit', () => {
  // Five times faster: the budget refills five times faster and the fake counts 20 per 12 s, so
  // a "minute" is 12 s. Both sides are scaled alike; nothing else about them changes. Slow
  // enough that back-to-back rounds ask more of each bot than its budget gives.
  const SCALE = 5;
  const MINUTE_MS = 60_000 / SCALE;
  const ANSWER = 'Sure.';
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness(
      { EMBEDDINGS: 'offline', AGENT_BOTS_REFRESH_MS: '200' },
      ['gateway', 'worker', 'api'],
      {
        telegram: {
          bots: fakeBots(),
          rateLimits: { groupPerMinute: GROUP_PER_MINUTE, groupWindowMs: MINUTE_MS },
        },
        openai: { defaultReply: () => ANSWER },
      },
      { platformLimits: { telegram: scaledLimits(SCALE) } },
    );
  });
  afterEach(() => h.stop());

  it('each bot sends at most 20 times a (scaled) minute into the group, and every answer is shown whole', async () => {
    const ids = await bindAgents(h, TRIO);
    const group = -4_100_700_000;
    const room = await openRoom(
      h,
      group,
      TRIO.map((k) => ids[k]),
    );
    // Rounds back to back for 2 scaled minutes: each human message as soon as the last round ends.
    const began = Date.now();
    let seq = 0;
    while (Date.now() - began < 2 * MINUTE_MS) {
      seq += 1;
      humanSays(h, group, `Round ${seq}: tell us more?`);
      await roundDone(h, room, seq);
    }
    // Every answer is delivered and shows its whole text.
    await eventually(
      async () =>
        (await h.app.store.c.messages.countDocuments({
          dialogueId: room.dialogueId,
          senderRole: 'ai',
          'delivery.state': 'complete',
        })) ===
          seq * TRIO.length || undefined,
      20_000,
      'every answer delivered',
    );
    const shown = h.tg.sentBy(group);
    expect(shown).toHaveLength(seq * TRIO.length);
    expect(shown.every((s) => s.text === ANSWER)).toBe(true);
    const perBot = TRIO.map((k) => {
      const times = limitedCalls(h, ROOM_BOTS[k].token, group);
      const sends = h.tg.calls.filter((c) => c.token === ROOM_BOTS[k].token && c.method === 'sendMessage').length;
      return { bot: k, calls: times.length, sends, most: mostInWindow(times, MINUTE_MS) };
    });
    const spanMs = Math.max(...TRIO.flatMap((k) => limitedCalls(h, ROOM_BOTS[k].token, group))) - began;
    console.log(
      `[roomPace] burst: ${seq} rounds of 3 in ${spanMs} ms (${(spanMs / MINUTE_MS).toFixed(2)} scaled minutes, ×${SCALE}); ` +
        perBot
          .map(
            (b) =>
              `${b.bot}: ${b.calls} calls (${b.sends} sendMessage; ${((b.calls * MINUTE_MS) / spanMs).toFixed(1)} a scaled minute on average), most in any scaled minute ${b.most}`,
          )
          .join('; ') +
        `; 429s ${h.tg.tooManyRequests}`,
    );
    for (const b of perBot) expect(b.most, b.bot).toBeLessThanOrEqual(GROUP_PER_MINUTE);
    // The burst did press on the budgets (the pipeline alone would go faster than they allow).
    expect(Math.max(...perBot.map((b) => b.most))).toBeGreaterThanOrEqual(GROUP_PER_MINUTE / 2);
    expect(h.tg.tooManyRequests).toBe(0);
    // The deployment's own bot spent nothing in the group: the agents' bots did all the posting.
    expect(
      h.tg.calls
        .filter((c) => String(c.params.chat_id) === String(group) && c.method !== 'getChat')
        .map((c) => c.token),
    ).not.toContain(h.env.TELEGRAM_BOT_TOKEN);
  }, 90_000);
});
