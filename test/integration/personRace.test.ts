// A person's first insert holds no guard (src/store/participants.ts): the unique `_id` decides
// its race with an upsert of the same person — a new member's first words in a known group
// while their first direct message founds a chat — and the upsert, losing, tries again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanIdOf, newHuman } from '../../src/store/participants.js';
import { startHarness, type Harness } from '../support/harness.js';

const RACES = 40;

describe('a person stored by two chats at once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, ['api']);
  });
  afterAll(async () => h.stop());

  const identity = (userId: string, displayName: string) => ({ platform: 'telegram' as const, userId, displayName });

  it('keeps both: the insert of the new person and the upsert of their new name', async () => {
    const { participants } = h.app.store;
    const at = new Date();
    const ids = Array.from({ length: RACES }, (_, i) => `race-${Date.now()}-${i}`);
    const outcomes = await Promise.all(
      ids.map((id) =>
        Promise.allSettled([
          participants.insertHuman(newHuman(identity(id, 'First Name'), at)),
          participants.resolveHuman(identity(id, 'Renamed'), at, null),
        ]),
      ),
    );
    expect(outcomes.flat().filter((o) => o.status === 'rejected')).toEqual([]);
    const stored = await Promise.all(ids.map((id) => participants.getHuman(humanIdOf(identity(id, '')))));
    expect(stored.map((p) => p?.displayName)).toEqual(ids.map(() => 'Renamed'));
  });

  it('keeps a link made while the person is first stored', async () => {
    const { participants } = h.app.store;
    const at = new Date();
    const into = newHuman(identity(`into-${Date.now()}`, 'Web Self'), at);
    await participants.insertHuman(into);
    const ids = Array.from({ length: RACES }, (_, i) => `link-${Date.now()}-${i}`);
    const outcomes = await Promise.all(
      ids.map((id) =>
        Promise.allSettled([
          participants.insertHuman(newHuman(identity(id, 'Linked'), at)),
          participants.link(identity(id, 'Linked'), into._id, at),
        ]),
      ),
    );
    expect(outcomes.flat().filter((o) => o.status === 'rejected')).toEqual([]);
    const stored = await Promise.all(ids.map((id) => participants.getHuman(humanIdOf(identity(id, '')))));
    expect(stored.map((p) => p?.linkedTo)).toEqual(ids.map(() => into._id));
  });
});
