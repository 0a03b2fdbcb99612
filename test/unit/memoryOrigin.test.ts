// SPEC §13's rule over plain data: where a memory learned in one chat may be recalled.
import { describe, expect, it } from 'vitest';
import { homeOf, isPrivateChat, originOf, placeOf, recallableIn } from '../../src/domain/memoryOrigin.js';
import { dedupeKeyOf } from '../../src/memory/normalize.js';
import { MemoryIndex, type IndexEntry } from '../../src/memory/memoryIndex.js';
import { mulberry32 } from '../support/prng.js';

const dm = { _id: 'dlg_dm', type: 'human_ai' as const };
const web = { _id: 'dlg_web', type: 'human_ai' as const };
const group = { _id: 'dlg_group', type: 'group' as const };
const otherGroup = { _id: 'dlg_group2', type: 'group' as const };
const room = { _id: 'dlg_room', type: 'group' as const, roomId: 'room_1' };

describe('memory origin', () => {
  it('calls a one-to-one chat private, and neither a group nor a room', () => {
    expect(isPrivateChat(dm)).toBe(true);
    expect(isPrivateChat(group)).toBe(false);
    expect(isPrivateChat(room)).toBe(false);
    expect(isPrivateChat({ type: 'human_ai', roomId: 'room_2' })).toBe(false);
    expect(originOf(room)).toEqual({ dialogueId: 'dlg_room', scope: 'group' });
  });

  it("recalls a private chat's memory in the person's private chats only", () => {
    const m = { origin: originOf(dm) };
    expect(recallableIn(m, placeOf(dm))).toBe(true);
    expect(recallableIn(m, placeOf(web))).toBe(true); // a linked identity's chat is theirs too
    expect(recallableIn(m, placeOf(group))).toBe(false);
    expect(recallableIn(m, placeOf(room))).toBe(false);
  });

  it("recalls a group's memory in that group only, unless an operator shared it", () => {
    const m = { origin: originOf(group) };
    expect(recallableIn(m, placeOf(group))).toBe(true);
    expect(recallableIn(m, placeOf(otherGroup))).toBe(false);
    expect(recallableIn(m, placeOf(dm))).toBe(false);
    expect(recallableIn({ ...m, visibility: 'shared' }, placeOf(dm))).toBe(true);
    expect(recallableIn({ ...m, visibility: 'shared' }, placeOf(otherGroup))).toBe(true);
  });

  it('treats a memory of unknown origin (older data) as private to its person', () => {
    expect(recallableIn({}, placeOf(dm))).toBe(true);
    expect(recallableIn({}, placeOf(group))).toBe(false);
    expect(homeOf(undefined)).toBe('private');
  });

  it('keeps the same words said in two groups as two memories, and private keys as before', () => {
    const text = 'User likes hiking.';
    expect(dedupeKeyOf('a', 'h', text, originOf(group))).not.toBe(dedupeKeyOf('a', 'h', text, originOf(otherGroup)));
    expect(dedupeKeyOf('a', 'h', text, originOf(dm))).toBe(dedupeKeyOf('a', 'h', text));
    expect(dedupeKeyOf('a', 'h', text, originOf(web))).toBe(dedupeKeyOf('a', 'h', text));
  });

  it('filters an index search by place before taking the top k', () => {
    const index = new MemoryIndex(2);
    const entry = (id: string, text: string, origin?: IndexEntry['origin']): IndexEntry => ({
      id,
      kind: 'fact',
      text,
      importance: 0.5,
      occurredAt: new Date(0),
      updatedAt: new Date(0),
      ...(origin ? { origin } : {}),
    });
    index.upsert(entry('secret', 'user is pregnant and tells nobody', originOf(dm)), new Float32Array([1, 0]));
    index.upsert(entry('old', 'user is pregnant, said long ago'), new Float32Array([1, 0]));
    index.upsert(entry('hike', 'user is pregnant? no: user hikes', originOf(group)), new Float32Array([0.6, 0.8]));
    const inGroup = { place: placeOf(group) };
    expect(index.keywordSearch('pregnant', 5, inGroup).map((h) => h.entry.id)).toEqual(['hike']);
    expect(index.search(new Float32Array([1, 0]), 1, inGroup).map((h) => h.entry.id)).toEqual(['hike']);
    const inDm = index.keywordSearch('pregnant', 5, { place: placeOf(dm) }).map((h) => h.entry.id);
    expect(inDm.sort()).toEqual(['old', 'secret']);
    expect(
      index
        .search(new Float32Array([1, 0]), 5, { home: 'private' })
        .map((h) => h.entry.id)
        .sort(),
    ).toEqual(['old', 'secret']);
  });

  it("answers the index's origin filter and standing order as the rule and a full sort would", () => {
    const rnd = mulberry32(7);
    const index = new MemoryIndex(2);
    const places = [placeOf(dm), placeOf(web), placeOf(group), placeOf(otherGroup), placeOf(room)];
    const origins = [undefined, originOf(dm), originOf(web), originOf(group), originOf(otherGroup), originOf(room)];
    const kinds = ['fact', 'preference', 'event'] as const;
    const all: IndexEntry[] = [];
    for (let i = 0; i < 600; i++) {
      const origin = origins[Math.floor(rnd() * origins.length)];
      const e: IndexEntry = {
        id: `m${i}`,
        kind: kinds[i % 3]!,
        text: `walk ${i}`,
        importance: Math.round(rnd() * 1000) / 1000,
        occurredAt: new Date(i),
        updatedAt: new Date(i),
        ...(origin ? { origin } : {}),
        ...(rnd() < 0.1 ? { visibility: 'shared' as const } : {}),
      };
      all.push(e);
      index.upsert(e);
    }
    for (let i = 0; i < 600; i += 7) index.remove(`m${i}`);
    const living = all.filter((_, i) => i % 7 !== 0);
    for (const place of places) {
      const seen = index
        .keywordSearch('walk', 1000, { place })
        .map((h) => h.entry.id)
        .sort();
      expect(seen).toEqual(
        living
          .filter((e) => recallableIn(e, place))
          .map((e) => e.id)
          .sort(),
      );
      const top = index.mostImportant(5, { place, kinds: ['preference'] }).map((e) => e.id);
      const sorted = living
        .filter((e) => e.kind === 'preference' && recallableIn(e, place))
        .sort((a, b) => b.importance - a.importance || Number(a.id.slice(1)) - Number(b.id.slice(1)))
        .slice(0, 5)
        .map((e) => e.id);
      expect(top).toEqual(sorted);
    }
  });
});
