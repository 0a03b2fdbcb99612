// What people saw of a message (src/domain/displayedText.ts): the text so far while a reply
// streams, what it was shown as once it ended, the content itself for what people wrote.
import { describe, expect, it } from 'vitest';
import { displayedText } from '../../src/domain/displayedText.js';

describe('displayedText', () => {
  it('shows a person’s message as written', () => {
    expect(displayedText({ content: 'hi' })).toBe('hi');
  });

  it('shows a streaming reply as it stands, an ended one as it was shown', () => {
    const said = 'The door creaks. [[advance]]';
    expect(displayedText({ content: said, delivery: { state: 'streaming', platformMessageIds: [] } })).toBe(said);
    expect(
      displayedText({
        content: said,
        delivery: { state: 'complete', shown: 'The door creaks.', platformMessageIds: [] },
      }),
    ).toBe('The door creaks.');
    expect(displayedText({ content: 'Plain.', delivery: { state: 'complete', platformMessageIds: [] } })).toBe(
      'Plain.',
    );
  });
});
