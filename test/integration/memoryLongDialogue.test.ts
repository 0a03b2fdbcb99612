// A 110-turn Telegram DM through the real pipeline with facts planted in Chinese and English,
// some later contradicted. Memories are extracted after each turn by the (fake) LLM; later
// questions must recall the planted facts that are still true, never the superseded ones, while
// the prompt stays bounded by the rolling summary. Prints recall@5.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { MemoryEntry } from '../../src/domain/model.js';
import { dialogueTurnView } from '../../src/trace/dialogueTurnView.js';

const CHAT = 778_110;

const PLANTED: Record<number, string> = {
  3: 'My name is Alice Moreau.',
  10: 'I live in Berlin with my sister.',
  15: '我最喜欢的食物是火锅。',
  22: 'I work as a nurse at the city hospital.',
  30: '我养了一只叫豆豆的猫。',
  45: 'I moved to Paris last month.',
  60: 'I quit the hospital and now I work as a teacher.',
  72: '我每天早上六点起床去跑步。',
};

const FILLERS = [
  'What do you think about the weather today?',
  '讲个笑话吧？',
  'Can you recommend a good book?',
  '你觉得周末做什么好？',
  'How do clouds form?',
  '为什么天空是蓝色的？',
  'Any tips for learning to cook?',
  '今天有什么新鲜事吗？',
];

/** Later questions and the planted (current) fact each must recall; `not` must never be recalled. */
const QUESTIONS: Array<{ ask: string; expect: RegExp; not?: RegExp }> = [
  { ask: 'Do you remember where I live now?', expect: /Paris/, not: /Berlin/ },
  { ask: '你还记得我最喜欢吃什么吗？', expect: /火锅/ },
  { ask: 'Remember what my job is these days?', expect: /teacher/, not: /nurse/ },
  { ask: '你还记得我的猫叫什么名字吗？', expect: /豆豆/ },
  { ask: 'Do you remember my name?', expect: /Alice/ },
  { ask: '你还记得我每天早上几点起床吗？', expect: /六点/ },
];

describe('a long dialogue remembers what is still true', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h.stop();
  });

  let update = 0;
  async function say(text: string): Promise<string> {
    update += 1;
    h.tg.pushUpdate(privateText({ updateId: 50_000 + update, chatId: CHAT, firstName: 'Alice', text }));
    const msg = await eventually(
      async () =>
        (await h.app.store.c.messages.findOne({
          'platformRef.chatId': String(CHAT),
          content: text,
          senderRole: 'human',
        })) ?? undefined,
      15_000,
      `stored: ${text}`,
    );
    const turnId = msg.turnId!;
    await eventually(
      async () => (await h.app.store.turns.get(turnId))?.status === 'responded',
      20_000,
      `answered: ${text}`,
    );
    return turnId;
  }

  const extractionsDone = async (n: number) =>
    eventually(
      async () =>
        (await h.app.store.c.events.countDocuments({ kind: 'llm_call', 'data.task': 'extract_memories' })) >= n,
      60_000,
      `${n} extractions`,
    );

  it('recalls current planted facts after 100+ turns, keeps the prompt bounded, and never recalls superseded ones', async () => {
    const turnIds: string[] = [];
    for (let t = 1; t <= 104; t++) turnIds.push(await say(PLANTED[t] ?? `${FILLERS[t % FILLERS.length]!} (${t})`));
    await extractionsDone(104);

    const hits: boolean[] = [];
    const recalledTexts: string[][] = [];
    for (const q of QUESTIONS) {
      const turnId = await say(q.ask);
      const built = await h.app.store.c.events.findOne({ turnId, kind: 'context_built' });
      const recall = built?.data.recall as { memoryIds: string[] } | null;
      const memories = await h.app.store.memories.getMany(recall?.memoryIds ?? []);
      const texts = (recall?.memoryIds ?? []).map((id) => memories.find((m) => m._id === id)?.text ?? '');
      recalledTexts.push(texts);
      hits.push(texts.slice(0, 5).some((t) => q.expect.test(t)));
      // A superseded fact never comes back, and everything recalled is current.
      if (q.not)
        expect(
          texts.some((t) => q.not!.test(t)),
          `${q.ask} recalled ${JSON.stringify(texts)}`,
        ).toBe(false);
      expect(memories.every((m) => m.status === 'active')).toBe(true);
      // The recalled facts reach the model in the prompt.
      const prompt = JSON.stringify(built?.data.prompt);
      for (const t of texts) expect(prompt).toContain(t);
      // Operators see the same memories linked to the turn (seed 000's DialogueTurn view).
      const view = await dialogueTurnView(h.app.store, turnId);
      expect(view?.memoryLinks.slice(0, recall?.memoryIds.length ?? 0)).toEqual(recall?.memoryIds ?? []);
    }
    const recallAt5 = hits.filter(Boolean).length / hits.length;
    const missed = QUESTIONS.flatMap((q, i) => (hits[i] ? [] : [`${q.ask} → ${JSON.stringify(recalledTexts[i])}`]));
    console.log(
      `[memoryLongDialogue] recall@5 = ${recallAt5.toFixed(2)} (${hits.filter(Boolean).length}/${hits.length})${missed.length ? `; missed: ${missed.join('; ')}` : ''}`,
    );
    expect(recallAt5, JSON.stringify(recalledTexts)).toBeGreaterThanOrEqual(5 / 6);

    // The contradicted facts are kept, marked superseded by the new ones.
    const all = await h.app.store.c.memories.find({}).toArray();
    const berlin = all.find((m: MemoryEntry) => /Berlin/.test(m.text));
    expect(berlin?.status).toBe('superseded');
    expect(all.find((m) => m._id === berlin?.supersededBy)?.text).toMatch(/Paris/);
    expect(all.find((m) => /nurse/.test(m.text))?.status).toBe('superseded');

    // Bounded prompt: the rolling summary keeps late prompts near early ones, and every build
    // logs each part's size.
    const builds = await h.app.store.c.events
      .find({ kind: 'context_built', dialogueId: berlin!.sources.dialogueId! })
      .sort({ at: 1 })
      .toArray();
    const tokens = builds.map((b) => Number(b.data.totalTokens));
    const early = Math.max(...tokens.slice(15, 30));
    const late = Math.max(...tokens.slice(80, 104));
    console.log(
      `[memoryLongDialogue] prompt tokens: turn 1 ${tokens[0]}, max of 16–30 ${early}, max of 81–104 ${late}, whole-history sum would grow linearly`,
    );
    expect(late).toBeLessThan(early * 2);
    for (const b of builds) expect(Object.keys(b.data.parts as object).length).toBeGreaterThan(3);
    const session = await h.app.store.sessions.get(builds.at(-1)!.sessionId!);
    expect(session?.rollingSummary?.turnsFolded).toBeGreaterThan(80);
  }, 600_000);
});
