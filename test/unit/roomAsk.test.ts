import { describe, expect, it } from 'vitest';
import { HOLD_CHARS, roomAsk } from '../../src/respond/roomAsk.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { skipResponseTool } from '../../src/rooms/skipTool.js';
import type { Store } from '../../src/store/store.js';

const none = new ToolRegistry([], 1_000);
const round = (canSkip: boolean) => ({ round: { roundId: 'r', fromMessageId: 'm', canSkip } });
/** The tool as the registry runs it: a throw becomes a rejection. */
const skip = (ask: ReturnType<typeof roomAsk>['ask']) =>
  Promise.resolve().then(() => skipResponseTool.run({}, ctx(ask)));
const ctx = (ask: ReturnType<typeof roomAsk>['ask']) => ({
  store: {} as Store, // the tool reads nothing from the store
  dialogueId: 'd',
  now: new Date(),
  timezone: 'UTC',
  signal: new AbortController().signal,
  ...(ask ? { ask } : {}),
});

describe('a room ask while the agent may skip', () => {
  it('holds short text back, then streams everything once it is clearly an answer', () => {
    const a = roomAsk(none, round(true));
    const shown: string[] = [];
    a.stream('Hm, ', (t) => shown.push(t));
    expect(shown).toEqual([]);
    a.stream('x'.repeat(HOLD_CHARS), (t) => shown.push(t));
    expect(shown.join('')).toBe(`Hm, ${'x'.repeat(HOLD_CHARS)}`);
    a.stream(' more', (t) => shown.push(t));
    expect(shown.at(-1)).toBe(' more');
  });

  it('accepts a skip before the agent spoke, refuses it after, and always when it was @mentioned', async () => {
    const early = roomAsk(none, round(true));
    expect(await skip(early.ask)).toEqual({ skipped: true });
    expect(early.skipped()).toBe(true);

    const late = roomAsk(none, round(true));
    late.stream('y'.repeat(HOLD_CHARS + 1), () => {});
    await expect(skip(late.ask)).rejects.toMatchObject({ code: 'SKIP_NOT_ALLOWED' });
    expect(late.skipped()).toBe(false);

    const mentioned = roomAsk(none, round(false));
    const shown: string[] = [];
    mentioned.stream('at once', (t) => shown.push(t));
    expect(shown).toEqual(['at once']);
    await expect(skip(mentioned.ask)).rejects.toMatchObject({ code: 'SKIP_NOT_ALLOWED' });
    // Outside rooms there is no skip at all.
    const plain = roomAsk(none, {});
    expect(plain.tools.specs().map((t) => t.name)).toEqual([]);
    await expect(skip(plain.ask)).rejects.toMatchObject({ code: 'NOT_YOUR_TURN' });
  });
});
