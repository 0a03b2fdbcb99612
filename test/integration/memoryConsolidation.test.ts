// Nightly memory consolidation against the real MongoDB-wire server and Redis, with the fake
// OpenAI server's task brain as the model: near-duplicates (English and Chinese) merged into
// refined entries that keep their sources, low-value entries pruned, a contradicted fact
// superseded — all of them still stored — and every fact that is still true still recallable;
// a failing call leaves its cluster as it was.
import { startMemoryRig, type MemoryRig } from '../support/memoryRig.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { MemoryEntry, MemoryKind } from '../../src/domain/model.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { embedTexts, findSimilar } from '../../src/memory/similar.js';
import { dedupeKeyOf } from '../../src/memory/normalize.js';
import { consolidateAll, consolidateOwner, type ConsolidationDeps } from '../../src/memory/consolidation.js';
import { type FakeOpenAI } from '../doubles/fakeOpenAI.js';

const AGENT = 'agt_rainbow';
const HUMAN = 'hum_alice';
const SCOPE = { ownerId: AGENT, subjectId: HUMAN };
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const NOW = new Date(T0 + 60 * DAY);

let rig: MemoryRig;
let store: Store;
let llm: FakeOpenAI;
let deps: ConsolidationDeps;

beforeAll(async () => {
  rig = await startMemoryRig();
  ({ store, llm } = rig);
});

afterAll(() => rig.close());

beforeEach(() => {
  llm.reset();
  deps = { ...rig.taskDeps(), now: () => NOW };
});

afterEach(() => rig.clear());

interface Seed {
  key: string;
  text: string;
  kind?: MemoryKind;
  importance?: number;
  /** Days after T0 it was said (and stored). */
  day: number;
  recalled?: number;
  /** Stored without a vector, or with one from another embedder: consolidation computes it. */
  vector?: 'none' | 'foreign';
}

// Alice's memories. Groups of restatements (English and Chinese), a move (Berlin, later Paris),
// unrelated single facts, two low-value entries and two low-value ones that are kept anyway.
const SEEDS: Seed[] = [
  { key: 'dog1', text: 'User has a dog named Rex.', day: 0, recalled: 2 },
  { key: 'dog2', text: "User's dog is called Rex.", day: 3, vector: 'none' },
  { key: 'dog3', text: 'User has a dog called Rex, a beagle.', day: 9, importance: 0.9 },
  { key: 'nurse1', text: 'User works as a nurse.', day: 1 },
  { key: 'nurse2', text: 'User works as a nurse at the Charité.', day: 12 },
  { key: 'jazz1', text: 'User loves jazz music.', kind: 'preference', day: 2, importance: 0.6 },
  {
    key: 'jazz2',
    text: 'User likes jazz music a lot.',
    kind: 'preference',
    day: 15,
    importance: 0.7,
    vector: 'foreign',
  },
  { key: 'tea1', text: '用户喜欢喝绿茶。', kind: 'preference', day: 2 },
  { key: 'tea2', text: '用户很喜欢喝绿茶。', kind: 'preference', day: 6 },
  { key: 'tea3', text: '用户爱喝绿茶。', kind: 'preference', day: 20 },
  { key: 'bday1', text: '用户的生日是三月五日。', day: 4 },
  { key: 'bday2', text: '用户生日在三月五日。', day: 8 },
  { key: 'berlin', text: 'User lives in Berlin.', day: 1, importance: 0.9 },
  { key: 'paris', text: 'User lives in Paris.', day: 25, importance: 0.9 },
  { key: 'cello', text: 'User is learning to play the cello.', day: 5 },
  { key: 'peanuts', text: 'User is allergic to peanuts.', day: 5, importance: 1 },
  { key: 'marathon', text: 'User ran a marathon in October.', kind: 'event', day: 7 },
  { key: 'mia', text: "User's sister Mia is a pilot.", day: 7 },
  { key: 'volvo', text: 'User drives an old red Volvo.', day: 10 },
  { key: 'spiders', text: 'User is afraid of spiders.', day: 10 },
  { key: 'languages', text: 'User speaks three languages.', day: 11 },
  { key: 'postcards', text: 'User collects vintage postcards.', day: 11 },
  { key: 'sea', text: 'User grew up near the sea.', day: 13 },
  { key: 'japanese', text: '用户在学日语。', day: 14 },
  { key: 'running', text: '用户每天早上跑步。', day: 14 },
  { key: 'coriander', text: '用户不吃香菜。', kind: 'preference', day: 16 },
  { key: 'cat', text: '用户的猫叫小白。', day: 16 },
  { key: 'iceland', text: 'User wants to visit Iceland next summer.', day: 17 },
  { key: 'sourdough', text: 'User bakes sourdough bread every Sunday.', day: 18 },
  // Low value: unimportant, never recalled, over 30 days old → pruned.
  {
    key: 'podcast',
    text: 'User once mentioned a podcast episode about trains.',
    kind: 'event',
    day: 3,
    importance: 0.1,
  },
  { key: 'weather', text: 'User said the weather was grey on a Tuesday.', kind: 'event', day: 4, importance: 0.2 },
  // Low importance but kept: a preference, and a fact that was recalled.
  { key: 'window', text: 'User prefers window seats on trains.', kind: 'preference', day: 5, importance: 0.2 },
  { key: 'trumpet', text: "User's neighbour plays the trumpet at night.", day: 6, importance: 0.2, recalled: 1 },
  // Low importance and unrecalled, but too recent to prune.
  { key: 'umbrella', text: 'User forgot an umbrella at the office.', kind: 'event', day: 45, importance: 0.1 },
];

/** Stored ids by key. */
let ids: Record<string, string>;

async function seed(
  seeds: Seed[],
  scope: { ownerId: string; subjectId?: string } = SCOPE,
  prefix = 'mem',
): Promise<Record<string, string>> {
  const vectors = await embedTexts(
    deps.embedder,
    seeds.map((s) => s.text),
  );
  const foreign = (await embedTexts(new HashedNgramEmbedder(16), ['x']))[0]!;
  const out: Record<string, string> = {};
  const docs = seeds.map((s, i): MemoryEntry => {
    const at = new Date(T0 + s.day * DAY);
    // Ids sort with creation order, like newId's time prefix.
    const _id = `${prefix}_${String(i).padStart(3, '0')}_${s.key}`;
    out[s.key] = _id;
    return {
      _id,
      ownerId: scope.ownerId,
      ...(scope.subjectId !== undefined ? { subjectId: scope.subjectId } : {}),
      kind: s.kind ?? 'fact',
      text: s.text,
      dedupeKey: dedupeKeyOf(scope.ownerId, scope.subjectId, s.text),
      ...(s.vector === 'none' ? {} : { embedding: s.vector === 'foreign' ? foreign : vectors[i]! }),
      importance: s.importance ?? 0.8,
      sources: {
        dialogueId: 'dlg_alice',
        sessionId: `ses_day${s.day}`,
        turnIds: [`trn_${s.key}`],
        messageIds: [`msg_${s.key}_1`, `msg_${s.key}_2`],
      },
      occurredAt: at,
      status: 'active',
      recall: { count: s.recalled ?? 0, ...(s.recalled ? { lastAt: new Date(at.getTime() + DAY) } : {}) },
      createdAt: at,
      updatedAt: at,
    };
  });
  await store.memories.insertMany(docs);
  return out;
}

const byId = async (): Promise<Map<string, MemoryEntry>> =>
  new Map((await store.c.memories.find({}).toArray()).map((m) => [m._id, m]));
const active = async (): Promise<MemoryEntry[]> => store.memories.activeInScope(SCOPE);
const strip = (t: string): string => t.replace(/[.。]+$/, '');

describe('memory consolidation', () => {
  beforeEach(async () => {
    ids = await seed(SEEDS);
  });

  it('merges restatements, prunes low-value entries and supersedes the old home, losing no fact that is still true', async () => {
    // The recall index is loaded before the run: it must see the changes afterwards.
    const before = await findSimilar(deps, SCOPE, ['Where does the user live?'], 3);
    expect(before[0]!.map((h) => h.entry.id)).toContain(ids.berlin);

    const stats = await consolidateOwner(deps, SCOPE);
    expect(stats).toEqual({
      before: 34,
      after: 24,
      refined: 5,
      merged: 12,
      pruned: 2,
      superseded: 1,
      failedClusters: 0,
    });
    const rows = await byId();
    // Nothing is deleted: 34 seeded + 5 refined.
    expect(rows.size).toBe(39);
    expect((await active()).length).toBe(24);
    expect(await store.memories.countActive(SCOPE)).toBe(24);

    // One model call per cluster, each shown its members by id.
    expect(llm.taskRequests.map((r) => r.task)).toEqual(Array(6).fill('consolidate_memories'));
    const inputs = llm.taskRequests.map((r) => r.input);
    expect(inputs[0]).toBe(
      [
        'Memories:',
        `- id=${ids.dog1} [fact] (importance 0.80, 2026-01-10) User has a dog named Rex.`,
        `- id=${ids.dog2} [fact] (importance 0.80, 2026-01-13) User's dog is called Rex.`,
        `- id=${ids.dog3} [fact] (importance 0.90, 2026-01-19) User has a dog called Rex, a beagle.`,
      ].join('\n'),
    );
    expect(inputs.some((i) => i.includes(ids.berlin!) && i.includes(ids.paris!))).toBe(true);
    expect(inputs.join('\n')).not.toContain(ids.podcast);

    // The refined entries: texts, sources and stats carried over from what they merged.
    const refined = (await active()).filter((m) => m.sources.memoryIds !== undefined);
    const groups: Record<string, string[]> = {
      dog: ['dog1', 'dog2', 'dog3'],
      nurse: ['nurse1', 'nurse2'],
      jazz: ['jazz1', 'jazz2'],
      tea: ['tea1', 'tea2', 'tea3'],
      bday: ['bday1', 'bday2'],
    };
    expect(refined).toHaveLength(5);
    for (const [name, keys] of Object.entries(groups)) {
      const sourceIds = keys.map((k) => ids[k]!);
      const entry = refined.find((m) => m.sources.memoryIds!.includes(sourceIds[0]!));
      expect(entry, name).toBeDefined();
      expect(entry!.sources).toEqual({
        dialogueId: 'dlg_alice',
        sessionId: rows.get(sourceIds[0]!)!.sources.sessionId,
        turnIds: keys.map((k) => `trn_${k}`),
        messageIds: keys.flatMap((k) => [`msg_${k}_1`, `msg_${k}_2`]),
        memoryIds: sourceIds,
      });
      expect(entry!).toMatchObject({ ownerId: AGENT, subjectId: HUMAN, status: 'active', createdAt: NOW });
      expect(entry!.occurredAt).toEqual(
        new Date(Math.max(...sourceIds.map((id) => rows.get(id)!.occurredAt.getTime()))),
      );
      expect(entry!.importance).toBe(Math.max(...sourceIds.map((id) => rows.get(id)!.importance)));
      expect(entry!.embedding?.model).toBe(deps.embedder.id);
      for (const id of sourceIds) {
        // Merged, pointing at the refined entry, still stored with its text.
        expect(rows.get(id), `${name} ${id}`).toMatchObject({
          status: 'merged',
          mergedInto: entry!._id,
          updatedAt: NOW,
        });
      }
    }
    const dog = refined.find((m) => m.sources.memoryIds!.includes(ids.dog1!))!;
    expect(dog).toMatchObject({
      text: "User has a dog named Rex; User's dog is called Rex; User has a dog called Rex, a beagle.",
      kind: 'fact',
      importance: 0.9,
      recall: { count: 2, lastAt: new Date(T0 + DAY) },
    });
    expect(refined.find((m) => m.sources.memoryIds!.includes(ids.tea1!))).toMatchObject({
      text: '用户喜欢喝绿茶；用户很喜欢喝绿茶；用户爱喝绿茶。',
      kind: 'preference',
    });
    expect(refined.find((m) => m.sources.memoryIds!.includes(ids.jazz1!))).toMatchObject({
      kind: 'preference',
      importance: 0.7,
    });

    // The move: Berlin superseded by Paris (kept stored), Paris active and unchanged.
    expect(rows.get(ids.berlin!)).toMatchObject({
      status: 'superseded',
      supersededBy: ids.paris,
      supersededAt: NOW,
      text: 'User lives in Berlin.',
    });
    expect(rows.get(ids.paris!)).toMatchObject({
      status: 'active',
      text: 'User lives in Paris.',
      updatedAt: new Date(T0 + 25 * DAY),
    });

    // Pruned: the two low-value entries; the preference, the recalled fact and the recent one stay.
    for (const k of ['podcast', 'weather'])
      expect(rows.get(ids[k]!), k).toMatchObject({ status: 'pruned', updatedAt: NOW });
    for (const k of ['window', 'trumpet', 'umbrella']) expect(rows.get(ids[k]!), k).toMatchObject({ status: 'active' });

    // Vectors computed for the entry without one and the one from another embedder.
    expect(rows.get(ids.dog2!)!.embedding?.model).toBe(deps.embedder.id);
    expect(rows.get(ids.jazz2!)!.embedding?.model).toBe(deps.embedder.id);

    // Every fact that is still true is in some active entry's text; Berlin and the pruned ones are not.
    const activeTexts = (await active()).map((m) => m.text);
    const gone = new Set(['berlin', 'podcast', 'weather']);
    for (const s of SEEDS.filter((x) => !gone.has(x.key))) {
      expect(
        activeTexts.some((t) => t.includes(strip(s.text))),
        s.key,
      ).toBe(true);
    }
    expect(activeTexts.some((t) => t.includes('Berlin'))).toBe(false);

    // Recall (the index loaded before the run) now finds Paris and no longer the retired entries.
    const [home] = await findSimilar(deps, SCOPE, ['Where does the user live?'], 5);
    expect(home!.map((h) => h.entry.id)).toContain(ids.paris);
    expect(home!.map((h) => h.entry.id)).not.toContain(ids.berlin);
    const [pet] = await findSimilar(deps, SCOPE, ['What is the name of the dog?'], 1);
    expect(pet![0]!.entry.id).toBe(dog._id);

    // A second run finds nothing left to merge.
    llm.reset();
    const again = await consolidateOwner(deps, SCOPE);
    expect(again).toEqual({
      before: 24,
      after: 24,
      refined: 0,
      merged: 0,
      pruned: 0,
      superseded: 0,
      failedClusters: 0,
    });
    expect(llm.taskRequests).toHaveLength(0);
  });

  it('leaves a cluster whose call fails active and unchanged, and consolidates the others', async () => {
    const dogIds = ['dog1', 'dog2', 'dog3'].map((k) => ids[k]!);
    const dogsBefore = (await store.memories.getMany(dogIds)).filter((m) => m.embedding !== undefined);
    // The dog cluster comes first (its first member is the oldest entry).
    llm.enqueueTask({ kind: 'error', status: 500, message: 'the model is down' });
    const stats = await consolidateOwner(deps, SCOPE);
    expect(stats).toMatchObject({
      refined: 4,
      merged: 9,
      superseded: 1,
      pruned: 2,
      failedClusters: 1,
      after: 34 - 2 - 9 + 4 - 1,
    });
    expect(llm.taskRequests[0]!.input).toContain(ids.dog1);
    const dogsAfter = await store.memories.getMany(dogIds);
    expect(dogsAfter.map((m) => m.status)).toEqual(['active', 'active', 'active']);
    // Entries that had a vector are byte for byte as they were.
    for (const b of dogsBefore) expect(dogsAfter.find((m) => m._id === b._id)).toEqual(b);
    expect(await store.c.memories.countDocuments({ 'sources.memoryIds': { $in: dogIds } })).toBe(0);

    // Unusable output (twice) is a failure too; the next night merges them.
    llm.reset();
    llm.enqueueTask({ kind: 'reply', chunks: ['not json'] }, { kind: 'reply', chunks: ['still not json'] });
    expect(await consolidateOwner(deps, SCOPE)).toMatchObject({ failedClusters: 1, refined: 0 });
    expect(await consolidateOwner(deps, SCOPE)).toMatchObject({ failedClusters: 0, refined: 1, merged: 3 });
    expect((await store.memories.getMany(dogIds)).map((m) => m.status)).toEqual(['merged', 'merged', 'merged']);
  });

  it('a contradicted entry replaced by one that is merged points at the refined entry', async () => {
    const carol = { ownerId: AGENT, subjectId: 'hum_carol' };
    const c = await seed(
      [
        { key: 'berlin', text: 'User lives in Berlin.', day: 1 },
        { key: 'paris', text: 'User lives in Paris.', day: 25 },
        { key: 'louvre', text: 'User lives in Paris now, near the Louvre.', day: 30 },
      ],
      carol,
      'mcar',
    );
    llm.enqueueTask({
      kind: 'reply',
      chunks: [
        JSON.stringify({
          entries: [{ text: 'User lives in Paris, near the Louvre.', sourceIds: [c.paris, c.louvre] }],
          // The model names the replaced entry by one of the ids it merged.
          contradicted: [{ id: c.berlin, byId: c.paris }],
        }),
      ],
    });
    expect(await consolidateOwner(deps, carol)).toEqual({
      before: 3,
      after: 1,
      refined: 1,
      merged: 2,
      pruned: 0,
      superseded: 1,
      failedClusters: 0,
    });
    const rows = await byId();
    const refined = rows.get(rows.get(c.paris!)!.mergedInto!)!;
    expect(refined).toMatchObject({
      text: 'User lives in Paris, near the Louvre.',
      kind: 'fact',
      status: 'active',
      sources: { memoryIds: [c.paris, c.louvre] },
    });
    // Not at the retired Paris entry: a chain must end at an active one.
    expect(rows.get(c.berlin!)).toMatchObject({ status: 'superseded', supersededBy: refined._id });
    // Alice's scope was not touched.
    expect(await store.memories.countActive(SCOPE)).toBe(SEEDS.length);
  });

  it('refined text equal to one of its sources: that entry absorbs the others and records them', async () => {
    const dave = { ownerId: AGENT, subjectId: 'hum_dave' };
    const d = await seed(
      [
        { key: 'jazz1', text: 'User loves jazz music.', kind: 'preference', day: 2, importance: 0.6 },
        {
          key: 'jazz2',
          text: 'User likes jazz music a lot.',
          kind: 'preference',
          day: 15,
          importance: 0.7,
          recalled: 3,
        },
      ],
      dave,
      'mdav',
    );
    llm.enqueueTask({
      kind: 'reply',
      chunks: [
        JSON.stringify({
          entries: [
            { text: 'User loves jazz music!', kind: 'preference', importance: 0.7, sourceIds: [d.jazz1, d.jazz2] },
          ],
          contradicted: [],
        }),
      ],
    });
    expect(await consolidateOwner(deps, dave)).toEqual({
      before: 2,
      after: 1,
      refined: 0,
      merged: 1,
      pruned: 0,
      superseded: 0,
      failedClusters: 0,
    });
    const rows = await byId();
    // Same normalised text as jazz1: no new entry, jazz2 folds into jazz1, which records it.
    expect(rows.get(d.jazz2!)).toMatchObject({ status: 'merged', mergedInto: d.jazz1 });
    expect(rows.get(d.jazz1!)).toMatchObject({ status: 'active', text: 'User loves jazz music.' });
    expect(rows.get(d.jazz1!)!.sources).toEqual({
      dialogueId: 'dlg_alice',
      sessionId: 'ses_day2',
      turnIds: ['trn_jazz1', 'trn_jazz2'],
      messageIds: ['msg_jazz1_1', 'msg_jazz1_2', 'msg_jazz2_1', 'msg_jazz2_2'],
      memoryIds: [d.jazz2],
    });
    // It is worth what the model said and carries jazz2's recall history.
    expect(rows.get(d.jazz1!)).toMatchObject({
      importance: 0.7,
      recall: { count: 3, lastAt: new Date(T0 + 16 * DAY) },
      updatedAt: NOW,
    });
    expect(rows.size).toBe(SEEDS.length + 2);

    // A rerun of the same absorption (a crash before the merge was marked) adds nothing twice.
    await store.c.memories.updateOne({ _id: d.jazz2 }, { $set: { status: 'active' }, $unset: { mergedInto: '' } });
    llm.enqueueTask({
      kind: 'reply',
      chunks: [
        JSON.stringify({
          entries: [
            { text: 'User loves jazz music!', kind: 'preference', importance: 0.7, sourceIds: [d.jazz1, d.jazz2] },
          ],
          contradicted: [],
        }),
      ],
    });
    expect(await consolidateOwner(deps, dave)).toMatchObject({ merged: 1, after: 1 });
    const again = (await byId()).get(d.jazz1!)!;
    expect(again.recall.count).toBe(3);
    expect(again.sources.memoryIds).toEqual([d.jazz2]);
    expect(again.sources.turnIds).toEqual(['trn_jazz1', 'trn_jazz2']);
  });

  it('consolidates every scope: other humans and the agent’s own reflections, nothing across scopes', async () => {
    const bob = await seed(
      [
        { key: 'bob1', text: 'User has a dog named Rex.', day: 0 },
        { key: 'bob2', text: 'User has a dog called Rex, a beagle.', day: 2 },
      ],
      { ownerId: AGENT, subjectId: 'hum_bob' },
      'mbob',
    );
    const own = await seed(
      [
        { key: 'r1', text: 'I enjoy talking about astronomy with people.', kind: 'reflection', day: 0 },
        { key: 'r2', text: 'I really enjoy talking about astronomy with people.', kind: 'reflection', day: 3 },
      ],
      { ownerId: AGENT },
      'mown',
    );
    const total = await consolidateAll(deps);
    expect(total).toEqual({
      scopes: 3,
      before: 34 + 2 + 2,
      after: 24 + 1 + 1,
      refined: 7,
      merged: 16,
      pruned: 2,
      superseded: 1,
      failedClusters: 0,
    });
    const rows = await byId();
    const bobRefined = rows.get(rows.get(bob.bob1!)!.mergedInto!)!;
    expect(bobRefined).toMatchObject({ subjectId: 'hum_bob', sources: { memoryIds: [bob.bob1, bob.bob2] } });
    const ownRefined = rows.get(rows.get(own.r1!)!.mergedInto!)!;
    expect(ownRefined.subjectId).toBeUndefined();
    expect(ownRefined).toMatchObject({ kind: 'reflection', sources: { memoryIds: [own.r1, own.r2] } });
    // Alice's dog memories were merged among themselves only.
    const aliceDog = rows.get(rows.get(ids.dog1!)!.mergedInto!)!;
    expect(aliceDog.sources.memoryIds).toEqual(['dog1', 'dog2', 'dog3'].map((k) => ids[k]));

    // Limited to one owner and subject.
    llm.reset();
    await seed(
      [
        { key: 'bob3', text: 'User drives a blue bike.', day: 0 },
        { key: 'bob4', text: 'User drives a blue bike daily.', day: 1 },
      ],
      { ownerId: AGENT, subjectId: 'hum_bob' },
      'mbob2',
    );
    const only = await consolidateAll(deps, { ownerId: AGENT, subjectId: 'hum_bob' });
    expect(only).toMatchObject({ scopes: 1, refined: 1, merged: 2 });
  });
});
