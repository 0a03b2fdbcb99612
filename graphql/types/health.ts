// Query.health: the deployment at a glance for the console's home page and its warnings —
// platforms, the model and the embeddings, MongoDB and Redis, the respond queue, and recent
// incidents, each linked to its turn. Cheap by design (src/health/collectHealth.ts).
import { builder } from '../builder.js';
import { apiError } from '../errors.js';
import { collectHealth } from '../../src/health/collectHealth.js';
import type {
  CallHealth,
  Health,
  Incident,
  PlatformHealth,
  QueueHealth,
  ServiceCheck,
} from '../../src/health/health.js';

const CallStateEnum = builder.enumType('CallState', {
  values: ['ok', 'degraded', 'failing', 'idle', 'off'] as const,
});
const IncidentKindEnum = builder.enumType('IncidentKind', {
  values: [
    'model_error',
    'model_timeout',
    'delivery_failure',
    'unanswered',
    'degraded_recall',
    'room_budget_stop',
    'moderation',
  ] as const,
});

const PlatformHealthType = builder.objectRef<PlatformHealth>('PlatformHealth').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    on: t.exposeBoolean('on', { description: 'False when the platform has no token: off, not missing.' }),
    mode: t.exposeString('mode', { nullable: true, description: 'polling, webhook, gateway or http; null when off.' }),
    lastInboundAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.lastInboundAt }),
  }),
});

const ServiceCheckType = builder.objectRef<ServiceCheck>('ServiceCheck').implement({
  fields: (t) => ({ name: t.exposeString('name'), ready: t.exposeBoolean('ready') }),
});

const CallHealthType = builder.objectRef<CallHealth>('CallHealth').implement({
  description: 'A remote service’s recent calls: failing when the latest failed, degraded at ≥ 20 % errors.',
  fields: (t) => ({
    name: t.exposeString('name'),
    target: t.exposeString('target', { description: 'The model name or the embedder.' }),
    state: t.field({ type: CallStateEnum, resolve: (c) => c.state }),
    windowMinutes: t.exposeInt('windowMinutes'),
    calls: t.exposeInt('calls'),
    errors: t.exposeInt('errors'),
    errorRate: t.exposeFloat('errorRate', { nullable: true }),
    lastOkAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.lastOkAt }),
    lastErrorAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.lastErrorAt }),
    lastError: t.exposeString('lastError', { nullable: true }),
  }),
});

const QueueHealthType = builder.objectRef<QueueHealth>('QueueHealth').implement({
  description: 'The respond queue (one job per turn awaiting its reply).',
  fields: (t) => ({
    waiting: t.exposeInt('waiting'),
    active: t.exposeInt('active'),
    delayed: t.exposeInt('delayed'),
    oldestWaitMs: t.exposeFloat('oldestWaitMs', { nullable: true }),
  }),
});

const IncidentType = builder.objectRef<Incident>('Incident').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: IncidentKindEnum, resolve: (i) => i.kind }),
    at: t.field({ type: 'DateTime', resolve: (i) => i.at }),
    dialogueId: t.exposeID('dialogueId'),
    turnId: t.exposeID('turnId', { nullable: true }),
    message: t.exposeString('message'),
  }),
});

export const HealthType = builder.objectRef<Health>('Health').implement({
  fields: (t) => ({
    at: t.field({ type: 'DateTime', resolve: (h) => h.at }),
    platforms: t.field({ type: [PlatformHealthType], resolve: (h) => h.platforms }),
    services: t.field({
      type: [ServiceCheckType],
      description: 'MongoDB and Redis readiness.',
      resolve: (h) => h.services,
    }),
    model: t.field({ type: CallHealthType, resolve: (h) => h.model }),
    embeddings: t.field({ type: CallHealthType, resolve: (h) => h.embeddings }),
    queue: t.field({ type: QueueHealthType, nullable: true, resolve: (h) => h.queue }),
    repliesInProgress: t.exposeInt('repliesInProgress', { nullable: true }),
    incidents: t.field({
      type: [IncidentType],
      description:
        'Model errors and timeouts, delivery failures, degraded recall, rooms stopped by their budget, moderation (flagged, withheld, unchecked) and unanswered turns of the window, newest first.',
      resolve: (h) => h.incidents,
    }),
    incidentWindowHours: t.exposeInt('incidentWindowHours'),
    modelConfigured: t.exposeBoolean('modelConfigured', {
      description:
        'False when replies have no model (no OPENAI_API_KEY, no OPENAI_BASE_URL of its own, no LLM_FALLBACKS): every reply is a notice naming the settings.',
    }),
    recordReadable: t.exposeBoolean('recordReadable', {
      description:
        "False when MongoDB did not answer: the model's calls and the incidents are then unknown, not absent.",
    }),
  }),
});

builder.queryFields((t) => ({
  health: t.field({
    type: HealthType,
    description: 'The deployment at a glance: cheap counters and bounded reads, meant to be polled.',
    resolve: (_r, _a, ctx) => {
      if (!ctx.ops.health) throw apiError('INTERNAL', 'health probes are not wired in this process');
      return collectHealth(ctx.store, ctx.ops.health, new Date());
    },
  }),
}));
