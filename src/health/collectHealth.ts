// Query.health's answer: the probes the composition root gives (platforms, readiness, the
// respond queue, the embeddings' signals) beside what the record says of the model's recent
// calls and the incidents — all read at once, each bounded.
import type { Store } from '../store/store.js';
import { callHealth, countCalls, type CallSample } from './callHealth.js';
import type { Health, HealthProbes } from './health.js';
import { healthWarnings, providerHealth } from './providerHealth.js';
import {
  budgetStopIncident,
  callIncident,
  degradedRecallIncident,
  deliveryIncident,
  mergeIncidents,
  moderationIncident,
  unansweredIncident,
} from './incidents.js';

/** The model's and the embeddings' error rate are over this many recent minutes. */
export const CALL_WINDOW_MINUTES = 15;
/** At most this many of the window's calls are read (the newest). */
export const CALL_SAMPLE_MAX = 500;
/** Incidents of the last hours, at most this many of each kind. */
export const INCIDENT_WINDOW_HOURS = 6;
export const INCIDENTS_MAX = 30;

export async function collectHealth(store: Store, probes: HealthProbes, now: Date): Promise<Health> {
  let recordReadable = true;
  const orNone = <T>(read: Promise<T[]>): Promise<T[]> =>
    read.catch(() => {
      recordReadable = false;
      return [];
    });
  const callsSince = new Date(now.getTime() - CALL_WINDOW_MINUTES * 60_000);
  const incidentsSince = new Date(now.getTime() - INCIDENT_WINDOW_HOURS * 3_600_000);
  // Marks in Redis, read beside the rest: a probe that fails lists nothing rather than failing the page.
  const marks = Promise.all([
    probes.providers?.().catch(() => []) ?? [],
    probes.embeddingsFallback?.().catch(() => null) ?? null,
  ]);
  const moderated = orNone(store.health.moderations(incidentsSince, INCIDENTS_MAX));
  // The record's reads fail when MongoDB is away: the page still answers, its readiness says why.
  const [platforms, services, queue, embeddings, calls, incidentCalls, deliveries, unanswered, degraded, stops] =
    await Promise.all([
      probes.platforms(),
      probes.services(),
      probes.respondQueue(),
      probes.embeddings(CALL_WINDOW_MINUTES),
      orNone(store.health.recentCalls(callsSince, CALL_SAMPLE_MAX)),
      orNone(store.health.recentCalls(incidentsSince, CALL_SAMPLE_MAX)),
      orNone(store.health.failedDeliveries(incidentsSince, INCIDENTS_MAX)),
      orNone(store.health.unansweredTurns(incidentsSince, INCIDENTS_MAX)),
      orNone(store.health.degradedRecalls(incidentsSince, INCIDENTS_MAX)),
      orNone(store.health.budgetStops(incidentsSince, INCIDENTS_MAX)),
    ]);
  const [providerMarks, fallback] = await marks;
  const providers = providerMarks.map((r) => providerHealth(r, now));
  // A record of work not done (an extraction skipped for want of participants) is no call.
  const samples: CallSample[] = calls
    .filter((e) => e.data.skipped === undefined)
    .map((e) =>
      typeof e.data.error === 'string' ? { at: e.at, ok: false, error: e.data.error } : { at: e.at, ok: true },
    );
  return {
    at: now,
    platforms,
    services,
    model: callHealth('model', probes.model, countCalls(samples), CALL_WINDOW_MINUTES),
    embeddings: callHealth('embeddings', embeddings.target, embeddings.counts, CALL_WINDOW_MINUTES, {
      off: !embeddings.remote,
    }),
    queue,
    repliesInProgress: queue?.active ?? null,
    incidents: mergeIncidents(
      [
        incidentCalls
          .map(callIncident)
          .filter((i) => i !== null)
          .slice(0, INCIDENTS_MAX),
        deliveries.map(deliveryIncident),
        unanswered.map(unansweredIncident),
        degraded.map(degradedRecallIncident),
        stops.map(budgetStopIncident),
        (await moderated).map(moderationIncident),
      ],
      INCIDENTS_MAX,
    ),
    incidentWindowHours: INCIDENT_WINDOW_HOURS,
    modelConfigured: probes.modelConfigured,
    providers,
    warnings: healthWarnings(providers, fallback),
    recordReadable,
  };
}
