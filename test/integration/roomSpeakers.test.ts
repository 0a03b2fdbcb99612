// Who said what in a room (issue 36), through the real pipeline: three agents in a Telegram group
// answered by the fake model, the fake summary model folding the oldest turns. After more than
// 20 turns the rolling summary names each agent with its own words, and the next prompt carries
// it; an operator's post reaches the next agent's prompt marked as the operator's, while the
// gateway's /help answer and an operator post into another chat do not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import type { Room, RoomRound } from '../../src/domain/room.js';
import type { ChatRequestBody } from '../doubles/fakeOpenAI.js';
import { telegramLimits } from '../../adapters/telegram/platform.js';

const GROUP = PLACES.group.chatId;
const chat = { platform: 'telegram', chatId: String(GROUP) } as const;
const ids = { aria: 'agt_aria', bo: 'agt_bo', cy: 'agt_cy' } as const;
/** What each agent brings along: its answers carry this, never its own name. */
const BRINGS = { Aria: 'maps', Bo: 'water', Cy: 'snacks' } as const;
type Name = keyof typeof BRINGS;

/** The fake model's answer in the room: the asked agent (from its persona) and the latest round. */
function answer(body: ChatRequestBody): string {
  const text = JSON.stringify(body.messages);
  const name = /You are (Aria|Bo|Cy), one of three/.exec(text)?.[1] as Name | undefined;
  const round = Math.max(0, ...[...text.matchAll(/Round (\d+):/g)].map((m) => Number(m[1])));
  return name ? `I would bring ${BRINGS[name]} for round ${round}. That is my pick.` : 'Hello.';
}

type PromptMessage = { role: string; content: unknown };

describe('rooms: summaries and prompts name who said what', () => {
  let h: Harness;
  let update = 0;
  let room: Room;

  beforeEach(async () => {
    // Telegram's 20 posts a minute in a group would make 24 answers take 80 s: raised, as nothing here is about pace.
    const limits = { ...telegramLimits(), groupChat: { perSecond: 20, burst: 20 } };
    h = await startHarness(
      { EMBEDDINGS: 'offline' },
      undefined,
      { openai: { defaultReply: answer } },
      {
        platformLimits: { telegram: limits },
      },
    );
    const at = new Date();
    for (const name of ['Aria', 'Bo', 'Cy'] as const)
      await h.app.store.participants.createAgent(
        {
          _id: `agt_${name.toLowerCase()}`,
          name,
          basePersona: `You are ${name}, one of three friends in a hiking group.`,
        },
        at,
      );
    room = await createRoom(
      h.app.store,
      { chat, name: 'Hikers', mode: 'default', agentIds: [ids.aria, ids.bo, ids.cy] },
      new Date(),
    );
  });
  afterEach(() => h.stop());

  const say = (text: string) => {
    update += 1;
    h.tg.pushUpdate(
      textUpdate({ updateId: 95_000 + update, place: PLACES.group, userId: 4242, firstName: 'Lin', text }),
    );
  };

  const roundDone = (seq: number): Promise<RoomRound> =>
    eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${room._id}.r${seq}`);
        return r?.completed ? r : undefined;
      },
      30_000,
      `round ${seq} to complete`,
    );

  /** The prompt an ask's reply was given (its `context_built` event). */
  const promptOf = async (turnId: string): Promise<PromptMessage[]> => {
    const built = await eventually(
      async () => (await h.app.store.c.events.findOne({ turnId, kind: 'context_built' })) ?? undefined,
      10_000,
      'the ask’s context',
    );
    return built.data.prompt as PromptMessage[];
  };

  it('after more than 20 turns the rolling summary names each agent with its own words, and the next prompt carries it', async () => {
    // Seven rounds of three asks: 21 turns, past the default threshold of 15 raw turns.
    for (let n = 1; n <= 7; n++) {
      say(`Round ${n}: what should we pack for the hike?`);
      const round = await roundDone(n);
      expect(round.answers.map((a) => a.agentId)).toHaveLength(3);
    }
    const session = await eventually(
      async () => {
        const dialogue = await h.app.store.dialogues.get(room.dialogueId);
        const s = dialogue?.currentSessionId ? await h.app.store.sessions.get(dialogue.currentSessionId) : null;
        return s?.rollingSummary ? s : undefined;
      },
      30_000,
      'the rolling summary',
    );
    const summary = session.rollingSummary!;
    expect(summary.turnsFolded).toBeGreaterThanOrEqual(6);
    const lines = summary.text.split('\n');

    // Every agent is named, each with exactly its own words: none merged into one "assistant".
    for (const [name, item] of Object.entries(BRINGS)) {
      expect(lines).toContain(`- ${name}: I would bring ${item} for round 1.`);
      const theirs = lines.filter((l) => l.startsWith(`- ${name}: `));
      expect(theirs.length).toBeGreaterThanOrEqual(2);
      expect(theirs.every((l) => l.includes(`bring ${item} `))).toBe(true);
    }
    expect(lines).toContain('- Lin: Round 1: what should we pack for the hike?');
    expect(summary.text).not.toMatch(/Assistant|assistant/);

    // The model was asked to keep the speakers apart, and was shown them by name.
    const fold = h.llm.taskRequests.find((r) => r.task === 'rolling_summary')!;
    expect(fold.system).toContain('never merge them into one "assistant"');
    expect(fold.input).toContain('] assistant (Bo): I would bring water for round 1.');

    // The next round's first ask reads that summary.
    say('Round 8: and what about lunch?');
    const eighth = await roundDone(8);
    const prompt = await promptOf(eighth.asks[0]!.turnId);
    expect(prompt).toContainEqual({ role: 'system', content: `[Summary of earlier conversation]\n${summary.text}` });
  }, 180_000);

  it('an operator post reaches the next ask marked as the operator’s; the /help answer and another chat’s post do not', async () => {
    say('Round 1: where shall we meet?');
    await roundDone(1);

    // Another chat of the same deployment: a private conversation with its own operator post.
    update += 1;
    h.tg.pushUpdate(privateText({ updateId: 95_000 + update, chatId: 777_000, firstName: 'Mo', text: 'Hi there' }));
    const dm = await eventually(
      async () => (await h.app.store.c.dialogues.findOne({ 'chat.chatId': '777000' })) ?? undefined,
      10_000,
      'the private dialogue',
    );
    const post = (dialogueId: string, text: string) =>
      h.gql<{ postMessage: { senderId: string; delivery: { state: string } } }>(
        'mutation($d: ID!, $t: String!) { postMessage(dialogueId: $d, text: $t, as: OPERATOR) { senderId delivery { state } } }',
        { d: dialogueId, t: text },
      );
    const elsewhere = await post(dm._id, 'Private note for Mo only.');
    expect(elsewhere.body.errors).toBeUndefined();

    const posted = await post(room.dialogueId, 'Reminder: the park gate closes at 18:00.');
    expect(posted.body.errors).toBeUndefined();
    expect(posted.body.data!.postMessage).toEqual({ senderId: 'operator:tester', delivery: { state: 'complete' } });
    // A gateway notice in the room: the answer to /help.
    say('/help');
    await eventually(
      () => Promise.resolve(h.tg.sentText(GROUP).some((t) => t.startsWith('Commands:')) || undefined),
      10_000,
      'the /help answer',
    );

    say('Round 2: anything else we should know?');
    const second = await roundDone(2);
    const prompt = await promptOf(second.asks[0]!.turnId);
    expect(prompt).toContainEqual({ role: 'system', content: '[Operator] Reminder: the park gate closes at 18:00.' });
    const text = JSON.stringify(prompt);
    expect(text).not.toContain('Commands:');
    expect(text).not.toContain('/help — show this help');
    expect(text).not.toContain('Private note for Mo only.');
    // The operator's words are never a person's or an agent's.
    expect(prompt.filter((m) => m.role !== 'system').some((m) => JSON.stringify(m).includes('park gate'))).toBe(false);

    // The room's export names every speaker too: each agent, the person, the operator.
    const exported = await h.gql<{ exportRoom: { content: string } }>(
      'mutation($id: ID!) { exportRoom(id: $id, format: MARKDOWN) { content } }',
      { id: room._id },
    );
    const doc = exported.body.data!.exportRoom.content;
    for (const who of ['Aria (AI) ·', 'Bo (AI) ·', 'Cy (AI) ·', 'Lin (human) ·', 'Operator tester (system) ·'])
      expect(doc).toContain(who);
  }, 90_000);
});
