// The persona split's migration against the real store: an evolved persona written before the
// split is held for review (in no prompt), once; one written after is left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryRig, type MemoryRig } from '../support/memoryRig.js';
import { holdLegacyPersonas, PERSONA_SPLIT } from '../../src/store/personaSplit.js';
import type { Agent } from '../../src/domain/model.js';
import { stablePrefix } from '../../src/context/buildContext.js';

let rig: MemoryRig;
beforeAll(async () => {
  rig = await startMemoryRig();
});
afterAll(() => rig.close());

const OLD = '你很喜欢林夏，知道她在偷偷准备辞职，也知道她最近确诊了抑郁症。';
const at = new Date('2026-11-01T00:00:00Z');

describe('holding evolved personas of an earlier version', () => {
  it('moves them out of the agent-wide part once, and keeps later ones', async () => {
    const { store } = rig;
    await store.c.agents.insertMany([
      {
        _id: 'agt_old',
        name: 'Old',
        basePersona: '你是小雨。',
        evolvedPersona: OLD,
        evolvedPersonaAt: at,
        isDefault: false,
        createdAt: at,
        updatedAt: at,
      },
      {
        _id: 'agt_plain',
        name: 'Plain',
        basePersona: 'You are Plain.',
        isDefault: false,
        createdAt: at,
        updatedAt: at,
      },
    ] satisfies Agent[]);
    const when = new Date('2026-11-27T00:00:00Z');
    expect(await holdLegacyPersonas(store, rig.log, when)).toBe(1);

    const old = (await store.participants.getAgent('agt_old'))!;
    expect(old.evolvedPersona).toBeUndefined();
    expect(old.heldPersona).toEqual({ text: OLD, heldAt: when });
    // The prompt's stable part holds the base persona only.
    expect(stablePrefix({ agent: old, groupChat: false })).not.toContain('林夏');
    expect((await store.participants.getAgent('agt_plain'))!.heldPersona).toBeUndefined();
    expect(await store.migrations.done(PERSONA_SPLIT)).toBe(true);

    // Evolved after the split: agent-wide by construction, never held again.
    await store.participants.setEvolvedPersona('agt_old', { text: 'You love rain now.', at: when }, { at });
    expect(await holdLegacyPersonas(store, rig.log)).toBe(0);
    expect((await store.participants.getAgent('agt_old'))!.evolvedPersona).toBe('You love rain now.');
  });
});
