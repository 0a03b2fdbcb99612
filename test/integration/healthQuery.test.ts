// Query.health: its shape with Telegram off (no token: listed as off, not left out) and the
// model answering 500 to a web chat's reply (failing, its error shown, an incident naming the
// turn), and its access (a viewer reads it; no token is refused before any resolver).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { webApi } from '../support/webClient.js';

const FIELDS = `{ at platforms { id on mode lastInboundAt } services { name ready }
  model { name target state calls errors errorRate lastOkAt lastErrorAt lastError windowMinutes }
  embeddings { name state }
  queue { waiting active delayed oldestWaitMs } repliesInProgress
  incidents { id kind at dialogueId turnId message } incidentWindowHours recordReadable }`;

interface HealthBody {
  health: {
    platforms: Array<{ id: string; on: boolean; mode: string | null; lastInboundAt: string | null }>;
    services: Array<{ name: string; ready: boolean }>;
    model: { state: string; calls: number; errors: number; errorRate: number | null; lastError: string | null };
    embeddings: { name: string; state: string };
    queue: { waiting: number; active: number; delayed: number; oldestWaitMs: number | null } | null;
    repliesInProgress: number | null;
    incidents: Array<{ kind: string; dialogueId: string; turnId: string | null; message: string }>;
    incidentWindowHours: number;
    recordReadable: boolean;
  };
}

describe('Query.health', () => {
  let h: Harness;
  // From the second test on, the model answers 500 to every reply request.
  let failing = false;
  beforeAll(async () => {
    h = await startHarness({ TELEGRAM_BOT_TOKEN: '', LLM_TIMEOUT_MS: '3000' }, undefined, {
      openai: {
        defaultStep: () =>
          failing
            ? { kind: 'error', status: 500, message: 'upstream exploded' }
            : { kind: 'reply', chunks: ['Hello.'] },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('answers viewers and refuses a request without a token', async () => {
    const viewer = await h.gql<HealthBody>(`{ health ${FIELDS} }`, {}, TEST_VIEWER_TOKEN);
    expect(viewer.body.errors).toBeUndefined();
    expect(viewer.body.data?.health.incidentWindowHours).toBeGreaterThan(0);
    const anonymous = await h.gql(`{ health { at } }`, {}, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.data).toBeUndefined();
  });

  it('shows Telegram off, the services ready, and the model failing with an incident on the turn', async () => {
    failing = true;
    // Background tasks (extraction, summaries) have their own script: they fail too.
    for (let i = 0; i < 30; i++) h.llm.enqueueTask({ kind: 'error', status: 500, message: 'upstream exploded' });
    const web = webApi(h.app.apiUrl!, TEST_OPERATOR_TOKEN);
    const conv = await web.createConversation();
    expect(conv.status).toBe(201);
    await web.send(String(conv.json!.id), { content: 'Are you there?' });

    const health = await eventually(
      async () => {
        const r = await h.gql<HealthBody>(`{ health ${FIELDS} }`);
        const x = r.body.data?.health;
        return x && x.model.state === 'failing' && x.incidents.length > 0 ? x : undefined;
      },
      20_000,
      'the model failing',
    );
    expect(health.platforms).toEqual([
      { id: 'telegram', on: false, mode: null, lastInboundAt: null },
      { id: 'discord', on: false, mode: null, lastInboundAt: null },
      { id: 'web', on: true, mode: 'http', lastInboundAt: expect.any(String) as string },
    ]);
    expect(health.services).toEqual([
      { name: 'mongodb', ready: true },
      { name: 'redis', ready: true },
    ]);
    expect(health.recordReadable).toBe(true);
    expect(health.model.state).toBe('failing');
    expect(health.model.lastError).toContain('upstream exploded');
    expect(health.model.errors).toBeGreaterThan(0);
    expect(health.model.errorRate).toBeGreaterThan(0);
    expect(health.queue).not.toBeNull();
    expect(health.repliesInProgress).toBe(health.queue!.active);

    const incident = health.incidents.find((i) => i.kind === 'model_error');
    expect(incident?.message).toContain('upstream exploded');
    const turn = await h.app.store.c.turns.findOne({ _id: incident!.turnId! });
    expect(turn?.dialogueId).toBe(incident!.dialogueId);
  });
});
