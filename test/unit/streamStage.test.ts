import { describe, expect, it } from 'vitest';
import { composeStages, markerStage, type StreamStage } from '../../src/delivery/streamStage.js';

/** Feeds the chunks through a stage and returns what was shown after each, and at the end. */
function run(stage: StreamStage, chunks: string[]): { shown: string[]; final: string } {
  const shown = chunks.map((c) => stage.push(c));
  return { shown, final: stage.end() };
}

describe('markerStage', () => {
  it('takes out a marker cut across three chunks; the text around it streams', () => {
    const markers: string[] = [];
    const r = run(markerStage({ names: ['PROGRESS'], onMarker: (m) => markers.push(m) }), [
      'The door opens. [PRO',
      'GRESS:2:d',
      'one] You step in.',
    ]);
    expect(r.shown).toEqual(['The door opens. ', '', 'You step in.']);
    expect(r.final).toBe('');
    expect(markers).toEqual(['[PROGRESS:2:done]']);
  });

  it('shows brackets that are not markers, as soon as that is known', () => {
    const r = run(markerStage({ names: ['PROGRESS'] }), ['a [', 'note] and [P', 'izza] and [PROGRESS', ':1:active]!']);
    expect(r.shown).toEqual(['a ', '[note] and ', '[Pizza] and ', '!']);
  });

  it('shows an unfinished marker at the end (it was said, not a marker)', () => {
    const r = run(markerStage({ names: ['PROGRESS'] }), ['wait [PROGRESS:3']);
    expect(r.shown).toEqual(['wait ']);
    expect(r.final).toBe('[PROGRESS:3');
  });

  it('gives up holding back past the longest marker or at a line break', () => {
    expect(run(markerStage({ names: ['PROGRESS'], maxLength: 12 }), ['[PROGRESS:12345678', '9]']).shown.join('')).toBe(
      '[PROGRESS:123456789]',
    );
    expect(run(markerStage({ names: ['PROGRESS'] }), ['[PROGRESS:1\n', 'x]']).shown.join('')).toBe('[PROGRESS:1\nx]');
  });
});

describe('composeStages', () => {
  it('passes text through when there are no stages', () => {
    expect(run(composeStages([]), ['a', 'b'])).toEqual({ shown: ['a', 'b'], final: '' });
  });

  it('leaves one space where a marker stood between two, and the text as it was elsewhere', () => {
    const stage = () => markerStage({ names: ['PROGRESS'] });
    expect(run(stage(), ['a [PROGRESS:1:done] b']).shown.join('')).toBe('a b');
    expect(run(stage(), ['a[PROGRESS:1:done] b']).shown.join('')).toBe('a b');
    expect(run(stage(), ['a [PROGRESS:1:done]b']).shown.join('')).toBe('a b');
    expect(run(stage(), ['a [PROGRESS:1:done]', '  two spaces']).shown.join('')).toBe('a  two spaces');
  });

  it("feeds each stage the previous one's output, also what is released at the end", () => {
    const lower: StreamStage = { push: (d) => d.toLowerCase(), end: () => '' };
    const r = run(composeStages([markerStage({ names: ['SKIP'] }), lower]), ['Hi [SK', 'IP:x] There [SKI']);
    expect(r.shown).toEqual(['hi ', 'there ']);
    expect(r.final).toBe('[ski');
  });
});
