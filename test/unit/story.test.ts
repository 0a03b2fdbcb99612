import { describe, expect, it } from 'vitest';
import {
  beatEvidence,
  currentBeat,
  directReply,
  fallbackDue,
  outlineText,
  parseProgressMarkers,
  reminderText,
  storySoFar,
  withoutMarkers,
} from '../../src/domain/director.js';
import {
  applyStep,
  beatsWithStatus,
  freshPlot,
  INSTANCES_KEPT,
  outlineProblems,
  STORY_LIMITS,
  withInstance,
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

describe('the director (seed 001)', () => {
  const plot0 = () => freshPlot('dlg_1', bg, at);

  it('reads markers, well-formed or not', () => {
    expect(
      parseProgressMarkers('a [PROGRESS:1:done] b [PROGRESS:2:active] [PROGRESS:x:done] [PROGRESS:3:won]'),
    ).toEqual([
      { n: 1, status: 'done' },
      { n: 2, status: 'active' },
      { malformed: '[PROGRESS:x:done]' },
      { malformed: '[PROGRESS:3:won]' },
    ]);
  });

  it("reads seed 001's own status words as the statuses they mean, and moves the plot with them", () => {
    expect(
      parseProgressMarkers('[PROGRESS:1:completed][PROGRESS:2:in_progress][PROGRESS:3:pending][PROGRESS:4:Done]'),
    ).toEqual([
      { n: 1, status: 'done' },
      { n: 2, status: 'active' },
      { n: 3, status: 'pending' },
      { n: 4, status: 'done' },
    ]);
    const moved = directReply(plot0(), bg, {
      text: '找到了。[PROGRESS:1:completed][PROGRESS:2:in_progress]',
      at,
      messageIds: ['m1'],
    });
    expect(moved.refused).toEqual([]);
    expect(moved.plot.noUpdateCount).toBe(0);
    expect(currentBeat(bg, moved.plot)?.n).toBe(2);
  });

  it('moves the plot with evidence; a reply that moves nothing counts up to the reminder', () => {
    const moved = directReply(plot0(), bg, { text: 'ok [PROGRESS:1:done][PROGRESS:2:active]', at, messageIds: ['m1'] });
    expect(moved.applied).toHaveLength(2);
    expect(currentBeat(bg, moved.plot)?.n).toBe(2);
    let plot = moved.plot;
    for (const text of ['nothing', '[PROGRESS:9:done]', '[PROGRESS:bad]'])
      plot = directReply(plot, bg, { text, at, messageIds: [] }).plot;
    expect(plot.noUpdateCount).toBe(3);
    expect(fallbackDue(plot, 3)).toBe(true);
    expect(directReply(plot, bg, { text: '[PROGRESS:2:done]', at, messageIds: [] }).plot.noUpdateCount).toBe(0);
  });

  it('shows the outline with statuses', () => {
    expect(outlineText(bg, plot0()).split('\n')[0]).toBe('1. [active] Find the traitor’s trail');
  });
});

describe('the fallback reminder (seed 001)', () => {
  const plot = [
    { n: 1, status: 'done' as const, ids: ['u1', 'r1'] },
    { n: 2, status: 'active' as const, ids: ['u2', 'r2'] },
    { n: 2, status: 'done' as const, ids: ['u3', 'r3'] },
  ].reduce(
    (p, s) => {
      const r = applyStep(p, bg, { n: s.n, status: s.status, at, by: 'director', messageIds: s.ids });
      if (!r.ok) throw new Error('step refused');
      return r.plot;
    },
    freshPlot('dlg_1', bg, at),
  );

  it("finds a beat's evidence newest first, and the story so far oldest first", () => {
    expect(beatEvidence(plot, 2)).toEqual(['u3', 'r3', 'u2', 'r2']);
    expect(beatEvidence(plot, 3)).toEqual([]);
    expect(storySoFar(plot)).toEqual(['u1', 'r1', 'u2', 'r2', 'u3', 'r3']);
  });

  it('names the beat, quotes both kinds of evidence clipped to one line, and leaves out empty lists', () => {
    const beat = bg.outline[1]!;
    const long = `${'a '.repeat(400)}end`;
    const text = reminderText(beat, 4, { happened: ['We found\ntracks.', long], elsewhere: [] });
    expect(text).toContain('not moved for 4 replies. It is at beat 2: Sneak into the base.');
    expect(text).toContain('- We found tracks.');
    expect(text).not.toContain('other storylines');
    expect(text.split('\n').every((l) => l.length <= 300 + 2 || !l.startsWith('- '))).toBe(true);
    expect(text).toContain('…');
    expect(reminderText(beat, 3, { happened: [], elsewhere: ['They slipped past.'] })).toContain(
      'How this beat went in other storylines (for reference only; do not copy them):\n- They slipped past.',
    );
  });

  it('quotes replies as people saw them: markers out', () => {
    expect(withoutMarkers('We go. [PROGRESS:2:done] On we walk [PROGRESS:x]')).toBe('We go. On we walk');
  });

  it("keeps an agent's storylines newest last, once each, bounded", () => {
    expect(withInstance(['a', 'b', 'c'], 'a')).toEqual(['b', 'c', 'a']);
    const many = Array.from({ length: INSTANCES_KEPT }, (_, i) => `d${i}`);
    const next = withInstance(many, 'new');
    expect(next).toHaveLength(INSTANCES_KEPT);
    expect(next[0]).toBe('d1');
    expect(next.at(-1)).toBe('new');
  });
});
