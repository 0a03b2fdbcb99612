// A new chat's documents, built before anything is written (src/ingest/founding.ts).
import { describe, expect, it } from 'vitest';
import { foundChat } from '../../src/ingest/founding.js';
import { humanIdOf, newHuman } from '../../src/store/participants.js';

const identity = { platform: 'telegram' as const, userId: '4242', displayName: 'Ada' };
const chat = { platform: 'telegram' as const, chatId: '-100777' };
const now = new Date('2026-11-25T10:00:00Z');

describe('a new chat', () => {
  it('lists a linked identity as itself, as later messages of the chat do, while its person speaks', () => {
    const linkedTo = { ...newHuman({ platform: 'web', userId: 'web-ada' }, now), displayName: 'Ada (web)' };
    const f = foundChat({ chat, identity, type: 'group', agentId: 'agt_default', human: linkedTo, now });
    expect(f.dialogue.humanIds).toEqual([humanIdOf(identity)]);
    expect(f.human).toBe(linkedTo);
    expect(f.newHuman).toBeUndefined();
    expect(f.session.dialogueId).toBe(f.dialogue._id);
  });

  it('builds a person seen for the first time, to be stored with the first message', () => {
    const f = foundChat({ chat, identity, type: 'group', agentId: 'agt_default', human: null, now });
    expect(f.newHuman).toMatchObject({ _id: humanIdOf(identity), displayName: 'Ada', identities: [identity] });
    expect(f.dialogue).toMatchObject({ humanIds: [humanIdOf(identity)], agentIds: ['agt_default'], messageCount: 0 });
  });
});
