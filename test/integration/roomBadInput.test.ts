// Bad input in a room: each gets a clear answer and leaves nothing stuck. An @ of nobody in the
// room is an ordinary message; an @ of an agent that left is not waited for, whether it left
// before the message or during the round; an answer deadline out of range is refused with a
// stable code and changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import type { Room, RoomRound } from '../../src/domain/room.js';

const GROUP = PLACES.group.chatId;
const ids = { aria: 'agt_bad_aria', bo: 'agt_bad_bo', cy: 'agt_bad_cy' };

describe('rooms: bad input gets a clear answer, and nothing waits', () => {
  let h: Harness;
  let room: Room;
  let update = 0;
  beforeEach(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline' });
    const at = new Date();
    for (const [key, name] of [
      ['aria', 'Aria'],
      ['bo', 'Bo'],
      ['cy', 'Cy'],
    ] as const)
      await h.app.store.participants.createAgent({ _id: ids[key], name, basePersona: `You are ${name}.` }, at);
    room = await createRoom(
      h.app.store,
      {
        chat: { platform: 'telegram', chatId: String(GROUP) },
        name: 'Hikers',
        mode: 'default',
        agentIds: [ids.aria, ids.bo, ids.cy],
      },
      at,
    );
  });
  afterEach(() => h.stop());

  const say = (text: string) => {
    update += 1;
    h.tg.pushUpdate(
      textUpdate({ updateId: 95_000 + update, place: PLACES.group, userId: 4242, firstName: 'Lin', text }),
    );
  };
  // Well under the room's answer deadline (3 minutes): a round that waited for anyone would not make it.
  const roundDone = (seq: number): Promise<RoomRound> =>
    eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${room._id}.r${seq}`);
        return r?.completed ? r : undefined;
      },
      15_000,
      `round ${seq}`,
    );
  const removeCy = async () => {
    const r = await h.gql('mutation($r: ID!, $m: ID!) { removeRoomMember(id: $r, memberId: $m) { id } }', {
      r: room._id,
      m: ids.cy,
    });
    expect(r.body.errors).toBeUndefined();
  };

  it('"@UnknownName hi" (no such member) is an ordinary message: everyone asked in order, each may skip', async () => {
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria: hi!'] },
      { kind: 'reply', chunks: ['Bo: hello.'] },
      { kind: 'reply', chunks: ['Cy: hey.'] },
    );
    say('@UnknownName hi');
    const round = await roundDone(1);
    expect(round).toMatchObject({ asked: [ids.aria, ids.bo, ids.cy], mustAnswer: [], endedBy: 'queue_done' });
    expect(round.answers.map((a) => a.agentId)).toEqual([ids.aria, ids.bo, ids.cy]);
    // Nobody was told it was addressed, and everyone was offered the pass.
    for (const ask of h.llm.requests.slice(-3)) {
      expect(JSON.stringify(ask.body.tools ?? [])).toContain('skip_response');
      expect(JSON.stringify(ask.body.messages)).not.toContain('You were @mentioned in this room');
    }
    await eventually(() => Promise.resolve(h.tg.sentText(GROUP).length === 3 || undefined), 5_000, 'three answers');
    expect(h.tg.sentText(GROUP)).toEqual(['Aria: hi!', 'Bo: hello.', 'Cy: hey.']);
  });

  it('an @ of an agent removed from the room: the round goes on without it', async () => {
    await removeCy();
    h.llm.enqueue({ kind: 'reply', chunks: ['Aria: Cy left.'] }, { kind: 'reply', chunks: ['Bo: sadly.'] });
    say('@Cy are you there?');
    const round = await roundDone(1);
    expect(round).toMatchObject({ asked: [ids.aria, ids.bo], mustAnswer: [], endedBy: 'queue_done' });
    expect(round.asks.map((a) => a.agentId)).not.toContain(ids.cy);
    await eventually(() => Promise.resolve(h.tg.sentText(GROUP).length === 2 || undefined), 5_000, 'two answers');
    expect(h.tg.sentText(GROUP)).toEqual(['Aria: Cy left.', 'Bo: sadly.']);
  });

  it('an agent removed during the round and then @mentioned by another is not called back', async () => {
    // Aria is slow to answer: the operator removes Cy meanwhile, and Aria's answer calls on Cy.
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria: @Cy, you pick.'], firstByteDelayMs: 1_500 },
      { kind: 'reply', chunks: ['Bo: the lake, then.'] },
      { kind: 'reply', chunks: ['Cy: I am not even here.'] },
    );
    say('Lake or ridge?');
    await h.llm.waitForRequests(1, 10_000);
    await removeCy();
    const round = await roundDone(1);
    expect(round.asks.map((a) => a.agentId)).toEqual([ids.aria, ids.bo]);
    expect(round).toMatchObject({ mustAnswer: [], endedBy: 'queue_done' });
    await eventually(() => Promise.resolve(h.tg.sentText(GROUP).length === 2 || undefined), 5_000, 'two answers');
    expect(h.tg.sentText(GROUP)).toEqual(['Aria: @Cy, you pick.', 'Bo: the lake, then.']);
    const cy = await h.app.store.c.messages.find({ dialogueId: room.dialogueId, senderId: ids.cy }).toArray();
    expect(cy).toEqual([]);
  });

  it('updateRoom answerTimeoutSeconds 0 or 3601 is BAD_REQUEST and leaves the room as it was', async () => {
    const update = (vars: { s: number; n?: string }) =>
      h.gql<{ updateRoom: { name: string; answerTimeoutSeconds: number | null } }>(
        'mutation($id: ID!, $s: Int, $n: String) { updateRoom(id: $id, answerTimeoutSeconds: $s, name: $n) { name answerTimeoutSeconds } }',
        { id: room._id, ...vars },
      );
    expect((await update({ s: 60 })).body.data?.updateRoom).toEqual({ name: 'Hikers', answerTimeoutSeconds: 60 });
    const before = await h.app.store.rooms.get(room._id);
    for (const s of [0, 3_601]) {
      // With another change beside it: nothing of the mutation is applied.
      const r = await update({ s, n: 'Renamed' });
      expect(r.body.data ?? null).toBeNull();
      expect(r.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
      expect(r.body.errors?.[0]?.message).toContain('answerTimeoutSeconds');
    }
    expect(await h.app.store.rooms.get(room._id)).toEqual(before);
    // The room still works at its deadline of 60 s.
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria: yes.'] },
      { kind: 'reply', chunks: ['Bo: yes.'] },
      { kind: 'reply', chunks: ['Cy: yes.'] },
    );
    say('Still on?');
    expect((await roundDone(1)).answers).toHaveLength(3);
  });
});
