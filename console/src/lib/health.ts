// Query.health as the console reads it: the home page shows all of it, the warnings page its
// failing services and incidents (one source for both, so they never disagree).
import type { MessageKey } from '../i18n/messages.js';
import { graphql, type FragmentOf, type ResultOf } from './graphql.js';
import { translate } from './locale.js';

const CallHealthFields = graphql(`
  fragment CallHealthFields on CallHealth {
    name
    target
    state
    windowMinutes
    calls
    errors
    errorRate
    lastOkAt
    lastErrorAt
    lastError
  }
`);

export const HEALTH_QUERY = graphql(
  `
    query Health {
      health {
        at
        platforms {
          id
          on
          mode
          lastInboundAt
        }
        services {
          name
          ready
        }
        model {
          ...CallHealthFields
        }
        embeddings {
          ...CallHealthFields
        }
        queue {
          waiting
          active
          delayed
          oldestWaitMs
        }
        repliesInProgress
        incidents {
          id
          kind
          at
          dialogueId
          turnId
          message
        }
        incidentWindowHours
        modelConfigured
        providers {
          id
          label
          state
          lastError
          coolingUntil
          toolsRefused
        }
        warnings {
          kind
          subject
          message
        }
        recordReadable
      }
    }
  `,
  [CallHealthFields],
);

export type HealthView = ResultOf<typeof HEALTH_QUERY>['health'];
export type CallHealthView = FragmentOf<typeof CallHealthFields>;
export type IncidentView = HealthView['incidents'][number];

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
  for (const s of h.services) if (!s.ready) out.push(t('health.notReady', { name: serviceName(s.name) }));
  if (!h.recordReadable) out.push(t('health.recordUnreadable'));
  return out;
}

/**
 * What needs attention but is no failure: no model configured (every reply is a notice), a model
 * answering without tools, memories on the offline embedder, a provider resting.
 */
export function warningsOf(h: Pick<HealthView, 'modelConfigured' | 'warnings'>, t: Translate = translate): string[] {
  const shown = h.warnings.map((w) => t(`health.warn.${w.kind}`, { subject: w.subject }));
  return h.modelConfigured ? shown : [t('health.noModel'), ...shown];
}

/** A service's name as people write it. */
export const serviceName = (name: string): string =>
  name === 'mongodb' ? 'MongoDB' : name === 'redis' ? 'Redis' : name;

/** Catalogue keys of the incident kinds' words. */
export const INCIDENT_LABELS: Record<IncidentView['kind'], MessageKey> = {
  model_error: 'incident.model_error',
  model_timeout: 'incident.model_timeout',
  delivery_failure: 'incident.delivery_failure',
  unanswered: 'incident.unanswered',
  degraded_recall: 'incident.degraded_recall',
  room_budget_stop: 'incident.room_budget_stop',
  moderation: 'incident.moderation',
};
