// The carry-over's tail against the real store: the previous session's last turns are picked
// from its window once and kept beside it; a message deleted (or edited) afterwards changes the
// tail too, so what the next session's prompts carry follows the record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryRig, type MemoryRig } from '../support/memoryRig.js';
import { dialogueRecord, sessionRecord } from '../support/records.js';
import type { Message } from '../../src/domain/model.js';
import { windowMessages } from '../../src/domain/windowRules.js';
import { lastTurns } from '../../src/context/carryOver.js';
import { tailIdOf } from '../../src/store/windows.js';

let rig: MemoryRig;
beforeAll(async () => {
  rig = await startMemoryRig();
});
afterAll(() => rig.close());

const T0 = Date.UTC(2026, 10, 20, 12, 0);

describe("a closed session's tail", () => {
  it('is picked once, and follows deletes and edits of its messages', async () => {
    const { store } = rig;
    const at = new Date(T0);
    await store.c.dialogues.insertOne(dialogueRecord({ id: 'dlg_tail', humanIds: ['hum_t'], agentIds: ['agt_t'], at }));
    await store.c.sessions.insertOne(sessionRecord({ id: 'ses_tail', dialogueId: 'dlg_tail', at }));
    await store.windows.create({ _id: 'ses_tail', dialogueId: 'dlg_tail' }, at);
    const said: Message[] = [];
    for (let i = 0; i < 4; i++)
      for (const role of ['human', 'ai'] as const) {
        const m: Message = {
          _id: `msg_tail_${i}_${role}`,
          dialogueId: 'dlg_tail',
          sessionId: 'ses_tail',
          turnId: `trn_tail_${i}`,
          senderRole: role,
          senderId: role === 'human' ? 'hum_t' : 'agt_t',
          contentType: 'text',
          content: `${role} ${i}`,
          mentions: [],
          visible: true,
          ...(role === 'ai' ? { delivery: { state: 'complete', platformMessageIds: [] } } : {}),
          createdAt: new Date(T0 + i * 60_000 + (role === 'ai' ? 1_000 : 0)),
          updatedAt: new Date(T0),
        };
        await store.messages.insertOnce(m);
        said.push(m);
      }
    const pick = (w: Parameters<Parameters<typeof store.windows.tailOf>[1]>[0]) => lastTurns(windowMessages(w), 2);
    const tail = await store.windows.tailOf({ _id: 'ses_tail', dialogueId: 'dlg_tail' }, pick, at);
    const texts = async () =>
      windowMessages((await store.windows.get(tailIdOf('ses_tail')))!)
        .filter((m) => !m.deleted)
        .map((m) => m.content);
    expect(windowMessages(tail!).map((m) => m.content)).toEqual(['human 2', 'ai 2', 'human 3', 'ai 3']);

    // Picked once: a later call reads it as stored.
    await store.windows.put({ ...said[0]!, content: 'changed in the window only' }, at);
    expect(
      windowMessages((await store.windows.tailOf({ _id: 'ses_tail', dialogueId: 'dlg_tail' }, pick, at))!),
    ).toHaveLength(4);

    // A delete and an edit of carried messages reach the tail.
    await store.messages.markDeleted(said[4]!, new Date(T0 + 3_600_000));
    await store.messages.applyEdit(said[6]!, 'human 3, edited', new Date(T0 + 3_600_000));
    expect(await texts()).toEqual(['ai 2', 'human 3, edited', 'ai 3']);
  });
});
