// Relay connections over the stored record: stable cursors, pageInfo, and clear errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import type { Dialogue, Message } from '../../src/domain/model.js';

interface Page<T> {
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
}

describe('GraphQL pagination', () => {
  let h: Harness;
  const base = Date.UTC(2026, 0, 1);
  beforeAll(async () => {
    h = await startHarness({}, ['api']);
    const dialogues: Dialogue[] = Array.from({ length: 5 }, (_, i) => ({
      _id: `dlg_p${i}`,
      type: 'human_ai',
      chat: { platform: 'telegram', chatId: String(1000 + i) },
      humanIds: [],
      agentIds: [],
      status: 'active',
      messageCount: 0,
      lastActivityAt: new Date(base + i * 60_000),
      createdAt: new Date(base),
      updatedAt: new Date(base),
    }));
    await h.app.store.c.dialogues.insertMany(dialogues);
    // Seven messages in one turn, two of them created in the same millisecond.
    const at = (i: number) => new Date(base + Math.min(i, 5) * 1000);
    const messages: Message[] = Array.from({ length: 7 }, (_, i) => ({
      _id: `msg_p${i}`,
      dialogueId: 'dlg_p0',
      sessionId: 'ses_p',
      turnId: 'trn_p',
      senderRole: 'human',
      senderId: 'hum_p',
      contentType: 'text',
      content: `m${i}`,
      mentions: [],
      visible: true,
      createdAt: at(i),
      updatedAt: at(i),
    }));
    await h.app.store.c.messages.insertMany(messages);
    await h.app.store.c.turns.insertOne({
      _id: 'trn_p',
      dialogueId: 'dlg_p0',
      sessionId: 'ses_p',
      kind: 'dialogue',
      initiatorRole: 'human',
      initiatorId: 'hum_p',
      responderRole: 'ai',
      responderId: 'agt_default',
      startedAt: new Date(base),
      responseWindowMs: 1,
      deadlineAt: new Date(base + 1),
      status: 'pending',
    });
    await h.app.store.c.sessions.insertOne({
      _id: 'ses_p',
      dialogueId: 'dlg_p0',
      kind: 'dialogue',
      status: 'open',
      startedAt: new Date(base),
      lastActivityAt: new Date(base),
      stats: { messageCount: 7, turnCount: 1 },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('lists dialogues most recent first, page by page', async () => {
    const q = `query ($after: String) { dialogues(first: 2, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const r: { body: { data?: { dialogues: Page<{ id: string }> } } } = await h.gql<{
        dialogues: Page<{ id: string }>;
      }>(q, { after });
      const page: Page<{ id: string }> = r.body.data!.dialogues;
      seen.push(...page.edges.map((e) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(['dlg_p4', 'dlg_p3', 'dlg_p2', 'dlg_p1', 'dlg_p0']);
  });

  it('walks a turn’s messages in order, including ties on createdAt', async () => {
    const q = `query ($after: String) { dialogue(id: "dlg_p0") { sessions { edges { node { turns { edges { node {
      messages(first: 3, after: $after) { edges { node { content } } pageInfo { hasNextPage endCursor } } } } } } } } } }`;
    type R = {
      dialogue: {
        sessions: {
          edges: Array<{ node: { turns: { edges: Array<{ node: { messages: Page<{ content: string }> } }> } } }>;
        };
      };
    };
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const r: { body: { data?: R } } = await h.gql<R>(q, { after });
      expect(r.body).not.toHaveProperty('errors');
      const page: Page<{ content: string }> =
        r.body.data!.dialogue.sessions.edges[0]!.node.turns.edges[0]!.node.messages;
      seen.push(...page.edges.map((e) => e.node.content));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
  });

  it('answers a malformed cursor and an unknown message id with stable codes', async () => {
    const bad = await h.gql('{ dialogues(first: 2, after: "!!not-a-cursor") { edges { node { id } } } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const missing = await h.gql('{ message(id: "msg_nope") { id } }');
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('MESSAGE_NOT_FOUND');
    expect(JSON.stringify(missing.body)).not.toMatch(/at .*\.ts/); // no stack traces
  });
});
