import { describe, expect, it } from 'vitest';
import {
  applyStep,
  beatsWithStatus,
  freshPlot,
  outlineProblems,
  STORY_LIMITS,
  type Background,
} from '../../src/domain/story.js';

const at = new Date('2026-01-01T00:00:00Z');
const bg: Background = {
  _id: 'bgd_1',
  name: 'Wasteland',
  worldSetting: '2087, fifty years after the war.',
  outline: ['Find the traitor’s trail', 'Sneak into the base', 'Face the enemy', 'Choose'].map((text, i) => ({
    n: i + 1,
    text,
  })),
  createdAt: at,
  updatedAt: at,
};

describe('plot state (seed 001)', () => {
  it('starts with the first beat under way and the rest pending', () => {
    const plot = freshPlot('dlg_1', bg, at);
    expect(beatsWithStatus(bg, plot).map((b) => b.status)).toEqual(['active', 'pending', 'pending', 'pending']);
    expect(plot.noUpdateCount).toBe(0);
  });

  it('records a step with its evidence and resets the no-update count; refuses a beat the outline lacks', () => {
    const plot = { ...freshPlot('dlg_1', bg, at), noUpdateCount: 2 };
    const r = applyStep(plot, bg, { n: 1, status: 'done', at, by: 'director', messageIds: ['msg_a'] });
    expect(r.ok && beatsWithStatus(bg, r.plot)[0]!.status).toBe('done');
    expect(r.ok && r.plot.noUpdateCount).toBe(0);
    expect(r.ok && r.plot.steps).toEqual([{ n: 1, status: 'done', at, by: 'director', messageIds: ['msg_a'] }]);
    expect(applyStep(plot, bg, { n: 9, status: 'done', at, by: 'director', messageIds: [] })).toEqual({
      ok: false,
      refusal: 'UNKNOWN_BEAT',
    });
  });

  it('bounds an outline: names, the setting, the number and size of beats', () => {
    expect(outlineProblems({ name: 'x', worldSetting: '', beats: ['a'] })).toEqual([]);
    const too = outlineProblems({
      name: ' ',
      worldSetting: 'w'.repeat(STORY_LIMITS.settingChars + 1),
      beats: [...Array.from({ length: STORY_LIMITS.beats }, () => 'b'), ''],
    });
    expect(too.map((p) => p.field)).toEqual(['name', 'worldSetting', 'beats', `beats[${STORY_LIMITS.beats}]`]);
  });
});
