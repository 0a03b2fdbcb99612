// The director's one marker grammar (src/domain/director.ts): the pattern the parser and quotes
// use and the scanner the stream stage uses for partial text agree — on markers cut across
// chunks, malformed markers, and text over MARKER_MAX_CHARS, which is shown, never parsed.
import { describe, expect, it } from 'vitest';
import {
  MARKER_MAX_CHARS,
  parseProgressMarkers,
  PROGRESS_OPEN,
  PROGRESS_PATTERN,
  scanMarker,
  withoutMarkers,
} from '../../src/domain/director.js';
import { STORY_LIMITS } from '../../src/domain/story.js';
import { markerStage } from '../../src/delivery/streamStage.js';
import { REQUIRED_STAGES } from '../../src/respond/requiredStages.js';

/** The stage every reply passes (requiredStages.ts), fed these chunks: what people saw in all. */
function shown(chunks: string[]): string {
  const [factory] = REQUIRED_STAGES.first;
  const stage = factory({ sources: [] });
  return chunks.map((c) => stage.push(c)).join('') + stage.end();
}

/** A marker whose whole length, brackets included, is `length`. */
const markerOfLength = (length: number): string => `${PROGRESS_OPEN}${'x'.repeat(length - PROGRESS_OPEN.length - 1)}]`;

describe('the marker grammar', () => {
  it('fits the longest well-formed marker well within the limit', () => {
    const longest = `${PROGRESS_OPEN}${STORY_LIMITS.beats}:in_progress]`;
    expect(longest.length).toBeLessThan(MARKER_MAX_CHARS);
    expect(parseProgressMarkers(longest)).toEqual([{ n: STORY_LIMITS.beats, status: 'active' }]);
  });

  it('scans text as it arrives: partial while it may become a marker, then a marker or text', () => {
    expect(scanMarker('[')).toEqual({ kind: 'partial' });
    expect(scanMarker('[PROG')).toEqual({ kind: 'partial' });
    expect(scanMarker('[PROGRESS:2:do')).toEqual({ kind: 'partial' });
    expect(scanMarker('[PROGRESS:2:done] after')).toEqual({ kind: 'marker', length: 17 });
    expect(scanMarker('[PROGRAM')).toEqual({ kind: 'text' });
    expect(scanMarker('[note]')).toEqual({ kind: 'text' });
    expect(scanMarker('[PROGRESS:2\ndone]')).toEqual({ kind: 'text' });
    expect(scanMarker('[SCENE:1]', '[SCENE:')).toEqual({ kind: 'marker', length: 9 });
  });

  it('draws the limit at the same character for the scanner, the pattern and the stage', () => {
    const atLimit = markerOfLength(MARKER_MAX_CHARS);
    const over = markerOfLength(MARKER_MAX_CHARS + 1);
    expect(scanMarker(atLimit)).toEqual({ kind: 'marker', length: MARKER_MAX_CHARS });
    expect(scanMarker(over)).toEqual({ kind: 'text' });
    expect(PROGRESS_PATTERN.exec(atLimit)?.[0]).toBe(atLimit);
    expect(PROGRESS_PATTERN.test(over)).toBe(false);
    expect(shown([`a ${atLimit} b`])).toBe('a b');
    expect(shown([`a ${over} b`])).toBe(`a ${over} b`);
    // Held back no longer than the limit: an opening never closed is shown once it is too long.
    const stage = markerStage({ names: ['PROGRESS'] });
    expect(stage.push(`${PROGRESS_OPEN}${'y'.repeat(MARKER_MAX_CHARS)}`)).toBe(
      `${PROGRESS_OPEN}${'y'.repeat(MARKER_MAX_CHARS)}`,
    );
  });

  it('agrees with the pattern at every length around the limit', () => {
    for (let length = PROGRESS_OPEN.length + 1; length <= MARKER_MAX_CHARS + 3; length += 1) {
      const m = markerOfLength(length);
      const scanned = scanMarker(m).kind === 'marker';
      expect(PROGRESS_PATTERN.test(m), `length ${length}`).toBe(scanned);
      expect(withoutMarkers(`a ${m} b`) === 'a b', `length ${length}`).toBe(scanned);
      expect(parseProgressMarkers(m).length, `length ${length}`).toBe(scanned ? 1 : 0);
    }
  });

  it('takes a marker split across stream chunks out of what people see, whatever the cut', () => {
    const text = 'The door opens. [PROGRESS:2:done] You step in.';
    for (let a = 1; a < text.length - 1; a += 1) {
      for (const b of [a + 1, a + 5, text.length - 1]) {
        const chunks = [text.slice(0, a), text.slice(a, b), text.slice(b)];
        expect(shown(chunks), chunks.join('|')).toBe('The door opens. You step in.');
      }
    }
    expect(withoutMarkers(text)).toBe('The door opens. You step in.');
  });

  it('hides a malformed marker and refuses it; the parser sees exactly what the stage hid', () => {
    const text = 'Hm. [PROGRESS: beat 3 : completed] And [PROGRESS:x:done] on.';
    expect(shown([text.slice(0, 10), text.slice(10)])).toBe('Hm. And on.');
    expect(parseProgressMarkers(text)).toEqual([
      { malformed: '[PROGRESS: beat 3 : completed]' },
      { malformed: '[PROGRESS:x:done]' },
    ]);
    expect(withoutMarkers(text)).toBe('Hm. And on.');
  });

  it('shows an unclosed or line-broken opening as text, and the parser ignores it', () => {
    expect(shown(['wait [PROGRESS:3'])).toBe('wait [PROGRESS:3');
    expect(shown(['[PROGRESS:1\n', 'x]'])).toBe('[PROGRESS:1\nx]');
    expect(parseProgressMarkers('wait [PROGRESS:3 and [PROGRESS:1\nx]')).toEqual([]);
  });
});
