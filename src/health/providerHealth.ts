// The model providers on the health page (pure): each provider of the chain (SPEC §14) with
// its last answer, last failure, cool-down and the models that refused tools, from the marks
// the worker processes leave in Redis; and the warnings an operator should act on — a model
// answering without tools, memories on the offline embedder, a provider resting.

/** What the marks say of one provider (app/healthMarks.ts). */
export interface ProviderRecord {
  /** `primary`, `fallback-1`…, `vision`. */
  id: string;
  /** `host model`: no key, no path. */
  label: string;
  lastOkAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  coolingUntil: Date | null;
  /** Models of this provider that refused tools (answered without them since). */
  toolsRefused: string[];
}

export type ProviderState = 'ok' | 'cooling' | 'failing' | 'idle';

export interface ProviderHealth extends ProviderRecord {
  /** cooling: skipped until `coolingUntil`; failing: its latest call failed; idle: no call seen. */
  state: ProviderState;
}

export type HealthWarningKind = 'tools_refused' | 'embeddings_offline' | 'provider_cooling';

export interface HealthWarning {
  kind: HealthWarningKind;
  /** The provider's id, or `embeddings`. */
  subject: string;
  message: string;
}

/** The embeddings' switch to the offline embedder, as marked (src/memory/fallbackEmbedder.ts). */
export interface EmbeddingsFallbackMark {
  from: string;
  to: string;
  reason: string;
  at: Date;
}

export function providerHealth(r: ProviderRecord, now: Date): ProviderHealth {
  let state: ProviderState;
  if (r.coolingUntil && r.coolingUntil > now) state = 'cooling';
  else if (r.lastErrorAt && (!r.lastOkAt || r.lastErrorAt >= r.lastOkAt)) state = 'failing';
  else if (r.lastOkAt) state = 'ok';
  else state = 'idle';
  return { ...r, state };
}

/** What needs an operator's eye among the providers and the embeddings. */
export function healthWarnings(
  providers: readonly ProviderHealth[],
  fallback: EmbeddingsFallbackMark | null,
): HealthWarning[] {
  const out: HealthWarning[] = [];
  for (const p of providers) {
    for (const model of p.toolsRefused)
      out.push({
        kind: 'tools_refused',
        subject: p.id,
        message: `${p.label.split(' ')[0] ?? p.label} ${model} refuses tools: it answers without them (no weather, time or other tools)`,
      });
    if (p.state === 'cooling')
      out.push({
        kind: 'provider_cooling',
        subject: p.id,
        message: `${p.label} failed (${p.lastError ?? 'unknown error'}); skipped until ${p.coolingUntil!.toISOString()}`,
      });
  }
  if (fallback)
    out.push({
      kind: 'embeddings_offline',
      subject: 'embeddings',
      message: `embeddings unavailable (${fallback.reason}): memories use the offline embedder ${fallback.to} instead of ${fallback.from}`,
    });
  return out;
}
