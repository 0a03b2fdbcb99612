// Dialogues: one per chat (derived id). Every write runs under the dialogue's state guard, so
// the pointer fields (current session, latest turn) are never overwritten by a stale copy.
import type { Collections } from './collections.js';
import type { ChatRef, Dialogue, DialogueType } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';
import { guardKeys, type StateGuard } from './stateGuard.js';
import { deleteDialogue, type DialogueDeletion } from './dialogueDeletion.js';

/** The one dialogue of a chat (or thread, or a private chat's chosen agent) has an id derived from where it lives. */
export const dialogueIdOf = (chat: ChatRef) =>
  derivedId(
    'dlg',
    chat.platform,
    chat.chatId,
    chat.threadId ?? '',
    ...(chat.bot ? ['bot', chat.bot] : []),
    ...(chat.agentId ? ['agent', chat.agentId] : []),
  );

export interface ActivityPatch {
  at: Date;
  currentSessionId: string;
  messages: number;
  /** FR-007: set by the caller only while the dialogue has none. */
  title?: string;
  /** The turn this activity opened (the dialogue's new latest turn); null records that it has none. */
  openTurnId?: string | null;
}

/** A new chat's dialogue with its first person and agent, not yet stored (as `resolve` creates it). */
export function newDialogue(
  chat: ChatRef,
  init: { type: DialogueType; humanId: string; agentId: string; at: Date },
): Dialogue {
  return {
    _id: dialogueIdOf(chat),
    type: init.type,
    chat,
    humanIds: [init.humanId],
    agentIds: [init.agentId],
    status: 'active',
    messageCount: 0,
    openTurnId: null,
    lastActivityAt: init.at,
    createdAt: init.at,
    updatedAt: init.at,
  };
}

export class DialogueRepo {
  constructor(
    private readonly c: Collections,
    private readonly guard: StateGuard,
  ) {}

  private guarded<T>(id: string, fn: () => Promise<T>): Promise<T> {
    return this.guard.run(guardKeys.dialogue(id), fn);
  }

  /** Stores a new chat's dialogue built by `newDialogue` (the caller holds its guard and read it absent). */
  async insert(d: Dialogue): Promise<void> {
    await this.guarded(d._id, () => this.c.dialogues.insertOne(d));
  }

  /**
   * The one lasting dialogue for a chat; created on first contact, idempotently. `read`: the
   * dialogue as the caller read it under its guard (undefined: read it here).
   */
  resolve(
    chat: ChatRef,
    init: { type: DialogueType; humanId: string; agentId: string; at: Date },
    read?: Dialogue | null,
  ): Promise<Dialogue> {
    const _id = dialogueIdOf(chat);
    return this.guarded(_id, async () => {
      // Most messages come from a known chat and person: one read, no write.
      const known = read !== undefined ? read : await this.get(_id);
      // A room's dialogue has the room's agents (set with the room), and a dialogue opened with
      // an agent (a web conversation) keeps it: only a dialogue without any gets `init.agentId`.
      const hasAgent = known !== null && (known.roomId !== undefined || known.agentIds.length > 0);
      if (known?.humanIds.includes(init.humanId) && hasAgent) return known;
      // As `newDialogue` builds it; its people are added to the sets below, new or not.
      const { _id: _same, humanIds: _humans, agentIds: _agents, ...onInsert } = newDialogue(chat, init);
      const doc = await this.c.dialogues.findOneAndUpdate(
        { _id },
        {
          $setOnInsert: onInsert,
          $addToSet: hasAgent ? { humanIds: init.humanId } : { humanIds: init.humanId, agentIds: init.agentId },
        },
        { upsert: true, returnDocument: 'after' },
      );
      if (!doc) throw new Error(`dialogue upsert returned nothing for ${_id}`);
      // Created just now, so it has no turn (FerretDB drops the null `$setOnInsert` sets; the
      // caller's activity write stores it).
      return known ? doc : { ...doc, openTurnId: doc.openTurnId ?? null };
    });
  }

  get(id: string): Promise<Dialogue | null> {
    return this.c.dialogues.findOne({ _id: id });
  }

  /**
   * BR-006: the dialogue and everything under it (dialogueDeletion.ts); the caller holds its
   * reply lease. Under its state guard too: no message is placed meanwhile, and the next hold
   * knows the documents changed (what ingest handed over is void: replyHandoff.ts).
   */
  deleteWithContents(id: string): Promise<DialogueDeletion> {
    return this.guarded(id, () => deleteDialogue(this.c, id));
  }

  /** Every dialogue a human takes part in, as BR-006 of a person sorts them (private or not). */
  ofHuman(humanId: string): Promise<Array<Pick<Dialogue, '_id' | 'type' | 'roomId' | 'humanIds'>>> {
    return this.c.dialogues
      .find({ humanIds: humanId }, { projection: { _id: 1, type: 1, roomId: 1, humanIds: 1 } })
      .toArray();
  }

  /** Ids of the dialogues a human shares with an agent, most recently active first (the persona card). */
  async recentIdsWith(humanId: string, agentId: string, limit: number): Promise<string[]> {
    const docs = await this.c.dialogues
      .find({ humanIds: humanId, agentIds: agentId }, { projection: { _id: 1 } })
      .sort({ lastActivityAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d._id);
  }

  /**
   * Ids of each agent's most recently active dialogues, at most `limit` per agent (an agent's
   * sessions in the API): one query for all the agents; a lone agent gets the exact limited one.
   */
  async recentIdsOfAgents(agentIds: readonly string[], limit: number): Promise<Map<string, string[]>> {
    const recent = { lastActivityAt: -1, _id: -1 } as const;
    const byAgent = new Map<string, string[]>(agentIds.map((a) => [a, []]));
    if (agentIds.length === 1) {
      const agentId = agentIds[0]!;
      const docs = await this.c.dialogues
        .find({ agentIds: agentId }, { projection: { _id: 1 } })
        .sort(recent)
        .limit(limit)
        .toArray();
      return byAgent.set(
        agentId,
        docs.map((d) => d._id),
      );
    }
    const docs = await this.c.dialogues
      .find({ agentIds: { $in: [...agentIds] } }, { projection: { _id: 1, agentIds: 1 } })
      .sort(recent)
      .toArray();
    for (const d of docs) {
      for (const agentId of d.agentIds) {
        const ids = byAgent.get(agentId);
        if (ids && ids.length < limit) ids.push(d._id);
      }
    }
    return byAgent;
  }

  async noteActivity(id: string, patch: ActivityPatch): Promise<void> {
    await this.guarded(id, () =>
      this.c.dialogues.updateOne(
        { _id: id },
        {
          $set: {
            lastActivityAt: patch.at,
            updatedAt: patch.at,
            currentSessionId: patch.currentSessionId,
            ...(patch.title ? { title: patch.title } : {}),
            ...(patch.openTurnId !== undefined ? { openTurnId: patch.openTurnId } : {}),
          },
          $inc: { messageCount: patch.messages },
        },
      ),
    );
  }

  /**
   * Records the dialogue's latest turn (a turn opened outside ingest: check-in, operator; or one
   * whose pointer a crash lost) and, when given, the session it is in.
   */
  async setOpenTurn(id: string, turnId: string | null, sessionId?: string): Promise<void> {
    const pointers = { openTurnId: turnId, ...(sessionId ? { currentSessionId: sessionId } : {}) };
    await this.guarded(id, () => this.c.dialogues.updateOne({ _id: id }, { $set: pointers }));
  }

  async countMessage(id: string, at: Date): Promise<void> {
    await this.guarded(id, () =>
      this.c.dialogues.updateOne(
        { _id: id },
        { $inc: { messageCount: 1 }, $set: { lastActivityAt: at, updatedAt: at } },
      ),
    );
  }

  /** A group's "answer everything" switch (SPEC §7). */
  /**
   * The chat's dialogue becomes a room's (SPEC §8): its agents are the room's, and it is created
   * if the chat had none. False when it already hosts a room.
   */
  hostRoom(chat: ChatRef, o: { roomId: string; type: DialogueType; agentIds: string[]; at: Date }): Promise<boolean> {
    const _id = dialogueIdOf(chat);
    return this.guarded(_id, async () => {
      const known = await this.get(_id);
      if (known?.roomId) return false;
      const fresh = { chat, status: 'active', messageCount: 0, createdAt: o.at, lastActivityAt: o.at } as const;
      await this.c.dialogues.updateOne(
        { _id },
        {
          $set: { roomId: o.roomId, agentIds: o.agentIds, type: o.type, updatedAt: o.at },
          ...(known ? {} : { $setOnInsert: fresh }),
        },
        { upsert: true },
      );
      // FerretDB drops empty arrays and nulls given to $setOnInsert: set apart on a new dialogue.
      if (!known) await this.c.dialogues.updateOne({ _id }, { $set: { humanIds: [], openTurnId: null } });
      return true;
    });
  }

  /** A room's new member joins its dialogue's agents. */
  async addAgent(id: string, agentId: string, at: Date): Promise<void> {
    await this.guarded(id, () =>
      this.c.dialogues.updateOne({ _id: id }, { $addToSet: { agentIds: agentId }, $set: { updatedAt: at } }),
    );
  }

  async setAnswerAll(id: string, on: boolean, at: Date): Promise<void> {
    await this.guarded(id, () =>
      this.c.dialogues.updateOne({ _id: id }, { $set: { 'settings.answerAll': on, updatedAt: at } }),
    );
  }

  /** A private chat's chosen agent (`/agent`), kept on its first dialogue; null: back to the default agent. */
  async chooseAgent(id: string, agentId: string | null, at: Date): Promise<void> {
    const choice = agentId
      ? { $set: { 'settings.chosenAgentId': agentId, updatedAt: at } }
      : {
          $unset: { 'settings.chosenAgentId': '' as const },
          $set: { updatedAt: at },
        };
    await this.guarded(id, () => this.c.dialogues.updateOne({ _id: id }, choice));
  }

  async setDirector(id: string, on: boolean, at: Date): Promise<void> {
    await this.guarded(id, () =>
      this.c.dialogues.updateOne({ _id: id }, { $set: { 'settings.director': on, updatedAt: at } }),
    );
  }

  /** The background its story follows from now on (null: none). The caller holds the dialogue's guard. */
  async setBackground(id: string, backgroundId: string | null, at: Date): Promise<void> {
    await this.c.dialogues.updateOne(
      { _id: id },
      backgroundId
        ? { $set: { backgroundId, updatedAt: at } }
        : { $unset: { backgroundId: '' }, $set: { updatedAt: at } },
    );
  }

  /**
   * Makes `toSessionId` the dialogue's current session, only while the dialogue is still on
   * `fromSessionId` (or on none): a session ingest opened meanwhile is never replaced.
   */
  adoptSuccessor(dialogueId: string, fromSessionId: string, toSessionId: string, at: Date): Promise<boolean> {
    return this.guarded(dialogueId, async () => {
      const d = await this.get(dialogueId);
      if (!d || (d.currentSessionId !== undefined && d.currentSessionId !== fromSessionId)) return false;
      await this.c.dialogues.updateOne({ _id: dialogueId }, { $set: { currentSessionId: toSessionId, updatedAt: at } });
      return true;
    });
  }
}
