// Query.health as the console reads it: the home page shows all of it, the warnings page its
// failing services and incidents (one source for both, so they never disagree).
import type { MessageKey } from '../i18n/messages.js';
import { translate } from './locale.js';

export type CallState = 'ok' | 'degraded' | 'failing' | 'idle' | 'off';

export interface CallHealthView {
  name: string;
  target: string;
  state: CallState;
  windowMinutes: number;
  calls: number;
  errors: number;
  errorRate: number | null;
  lastOkAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
}

export interface IncidentView {
  id: string;
  kind: 'model_error' | 'model_timeout' | 'delivery_failure' | 'unanswered';
  at: string;
  dialogueId: string;
  turnId: string | null;
  message: string;
}

export interface HealthView {
  at: string;
  platforms: Array<{ id: string; on: boolean; mode: string | null; lastInboundAt: string | null }>;
  services: Array<{ name: string; ready: boolean }>;
  model: CallHealthView;
  embeddings: CallHealthView;
  queue: { waiting: number; active: number; delayed: number; oldestWaitMs: number | null } | null;
  repliesInProgress: number | null;
  incidents: IncidentView[];
  incidentWindowHours: number;
}

const CALL = 'name target state windowMinutes calls errors errorRate lastOkAt lastErrorAt lastError';

export const HEALTH_QUERY = `query Health { health {
  at platforms { id on mode lastInboundAt } services { name ready }
  model { ${CALL} } embeddings { ${CALL} }
  queue { waiting active delayed oldestWaitMs } repliesInProgress
  incidents { id kind at dialogueId turnId message } incidentWindowHours } }`;

/** How often the health views refresh. */
export const HEALTH_POLL_MS = 10_000;

type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

/** What needs attention now: failing or degraded services, services not ready (incidents aside). */
export function problemsOf(h: HealthView, t: Translate = translate): string[] {
  const out: string[] = [];
  for (const c of [h.model, h.embeddings]) {
    if (c.state === 'failing')
      out.push(
        t('health.failing', { name: c.name, target: c.target, error: c.lastError ?? t('health.failingDefault') }),
      );
    else if (c.state === 'degraded')
      out.push(t('health.degraded', { name: c.name, target: c.target, pct: Math.round((c.errorRate ?? 0) * 100) }));
  }
  for (const s of h.services) if (!s.ready) out.push(t('health.notReady', { name: s.name }));
  return out;
}

/** Catalogue keys of the incident kinds' words. */
export const INCIDENT_LABELS: Record<IncidentView['kind'], MessageKey> = {
  model_error: 'incident.model_error',
  model_timeout: 'incident.model_timeout',
  delivery_failure: 'incident.delivery_failure',
  unanswered: 'incident.unanswered',
};
