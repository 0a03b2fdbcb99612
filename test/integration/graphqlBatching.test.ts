// No N+1: a nested query costs one database round trip per level, however many parents each
// level has (dataloaders batch the child pages). Counted with the driver's command monitoring.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { CommandStartedEvent } from 'mongodb';
import { startHarness, type Harness } from '../support/harness.js';
import type { Dialogue, Message, Session, Turn } from '../../src/domain/model.js';

const READS = new Set(['find', 'aggregate', 'count', 'getMore']);

function seed(dialogues: number, sessionsPer: number, turnsPer: number, messagesPer: number) {
  const base = Date.UTC(2026, 5, 1);
  const at = (n: number) => new Date(base + n * 1000);
  const d: Dialogue[] = [];
  const s: Session[] = [];
  const t: Turn[] = [];
  const m: Message[] = [];
  let clock = 0;
  for (let i = 0; i < dialogues; i++) {
    const dialogueId = `dlg_b${i}`;
    d.push({
      _id: dialogueId,
      type: 'human_ai',
      chat: { platform: 'telegram', chatId: String(500 + i) },
      humanIds: ['hum_b'],
      agentIds: ['agt_default'],
      status: 'active',
      messageCount: sessionsPer * turnsPer * messagesPer,
      lastActivityAt: at(10_000 + i),
      createdAt: at(0),
      updatedAt: at(0),
    });
    for (let j = 0; j < sessionsPer; j++) {
      const sessionId = `ses_b${i}_${j}`;
      s.push({
        _id: sessionId,
        dialogueId,
        kind: 'dialogue',
        status: 'closed',
        startedAt: at(clock),
        lastActivityAt: at(clock),
        stats: { messageCount: turnsPer * messagesPer, turnCount: turnsPer },
      });
      for (let k = 0; k < turnsPer; k++) {
        const turnId = `trn_b${i}_${j}_${k}`;
        t.push({
          _id: turnId,
          dialogueId,
          sessionId,
          kind: 'dialogue',
          initiatorRole: 'human',
          initiatorId: 'hum_b',
          responderRole: 'ai',
          responderId: 'agt_default',
          startedAt: at(clock),
          responseWindowMs: 1000,
          deadlineAt: at(clock + 1),
          status: 'responded',
        });
        for (let l = 0; l < messagesPer; l++) {
          clock++;
          m.push({
            _id: `msg_b${i}_${j}_${k}_${l}`,
            dialogueId,
            sessionId,
            turnId,
            senderRole: l === 0 ? 'human' : 'ai',
            senderId: l === 0 ? 'hum_b' : 'agt_default',
            contentType: 'text',
            content: `d${i} s${j} t${k} m${l}`,
            mentions: [],
            visible: true,
            createdAt: at(clock),
            updatedAt: at(clock),
          });
        }
      }
    }
  }
  return { d, s, t, m };
}

const NESTED = `{ dialogues(first: 10) { edges { node { id sessions(first: 10) { edges { node { id turns(first: 10) { edges { node { id status
  messages(first: 10) { edges { node { id content } } } } } } } } } } } } }`;

type R = {
  dialogues: {
    edges: Array<{
      node: {
        sessions: {
          edges: Array<{
            node: { turns: { edges: Array<{ node: { messages: { edges: Array<{ node: { content: string } }> } } }> } };
          }>;
        };
      };
    }>;
  };
};

describe('GraphQL batching', () => {
  let h: Harness;
  const commands: string[] = [];
  beforeAll(async () => {
    const uri = new URL(inject('mongoUri'));
    uri.searchParams.set('monitorCommands', 'true');
    h = await startHarness({ MONGODB_URI: uri.toString() }, ['api']);
    h.app.store.client.on('commandStarted', (e: CommandStartedEvent) => {
      if (READS.has(e.commandName))
        commands.push(`${e.commandName} ${String((e.command as Record<string, unknown>)[e.commandName])}`);
    });
    const { d, s, t, m } = seed(4, 3, 4, 3);
    await h.app.store.c.dialogues.insertMany(d);
    await h.app.store.c.sessions.insertMany(s);
    await h.app.store.c.turns.insertMany(t);
    await h.app.store.c.messages.insertMany(m);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('reads each level of dialogues → sessions → turns → messages in one round trip', async () => {
    commands.length = 0;
    const r = await h.gql<R>(NESTED);
    expect(r.body.errors).toBeUndefined();
    const contents = r.body.data!.dialogues.edges.flatMap((dn) =>
      dn.node.sessions.edges.flatMap((sn) =>
        sn.node.turns.edges.flatMap((tn) => tn.node.messages.edges.map((mn) => mn.node.content)),
      ),
    );
    expect(contents).toHaveLength(4 * 3 * 4 * 3);
    expect(contents.slice(0, 3)).toEqual(['d3 s0 t0 m0', 'd3 s0 t0 m1', 'd3 s0 t0 m2']); // newest dialogue first, children in time order
    // 4 dialogues, 12 sessions, 48 turns, 144 messages: still one query per level.
    expect(commands).toEqual(['find dialogues', 'find sessions', 'find turns', 'find messages']);
  });

  it('keeps each parent’s page to its own first N', async () => {
    const r =
      await h.gql<R>(`{ dialogues(first: 2) { edges { node { sessions(first: 2) { edges { node { turns(first: 1) { edges { node {
      messages(first: 2) { edges { node { content } } } } } } } } } } } } }`);
    expect(r.body.errors).toBeUndefined();
    const shape = r.body.data!.dialogues.edges.map((dn) =>
      dn.node.sessions.edges.map((sn) =>
        sn.node.turns.edges.map((tn) => tn.node.messages.edges.map((mn) => mn.node.content)),
      ),
    );
    expect(shape).toEqual([
      [[['d3 s0 t0 m0', 'd3 s0 t0 m1']], [['d3 s1 t0 m0', 'd3 s1 t0 m1']]],
      [[['d2 s0 t0 m0', 'd2 s0 t0 m1']], [['d2 s1 t0 m0', 'd2 s1 t0 m1']]],
    ]);
  });
});
