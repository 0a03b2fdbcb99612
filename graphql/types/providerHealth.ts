// The model providers on the health page (SPEC §14): each provider of the chain with its last
// answer, failure and cool-down, and the warnings an operator should act on that are no failure
// (a model answering without tools, memories on the offline embedder, a provider resting).
import { builder } from '../builder.js';
import { HealthType } from './health.js';
import type { HealthWarning, ProviderHealth } from '../../src/health/providerHealth.js';

const ProviderStateEnum = builder.enumType('ProviderState', {
  description:
    'ok: its latest call answered; cooling: passed over until coolingUntil; failing: its latest call failed; idle: no call seen.',
  values: ['ok', 'cooling', 'failing', 'idle'] as const,
});

const ProviderHealthType = builder.objectRef<ProviderHealth>('ProviderHealth').implement({
  description:
    'One model provider of the chain (the primary, LLM_FALLBACKS in order, vision’s own), as the workers last saw it.',
  fields: (t) => ({
    id: t.exposeString('id', { description: '`primary`, `fallback-1`…, `vision`.' }),
    label: t.exposeString('label', { description: 'Host and model; never a key.' }),
    state: t.field({ type: ProviderStateEnum, resolve: (p) => p.state }),
    lastOkAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.lastOkAt }),
    lastErrorAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.lastErrorAt }),
    lastError: t.exposeString('lastError', { nullable: true }),
    coolingUntil: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.coolingUntil }),
    toolsRefused: t.exposeStringList('toolsRefused', {
      description: 'Models of this provider that refused tools: answered without them since.',
    }),
  }),
});

const HealthWarningKindEnum = builder.enumType('HealthWarningKind', {
  values: ['tools_refused', 'embeddings_offline', 'provider_cooling'] as const,
});

const HealthWarningType = builder.objectRef<HealthWarning>('HealthWarning').implement({
  fields: (t) => ({
    kind: t.field({ type: HealthWarningKindEnum, resolve: (w) => w.kind }),
    subject: t.exposeString('subject', { description: 'The provider’s id, or `embeddings`.' }),
    message: t.exposeString('message'),
  }),
});

builder.objectFields(HealthType, (t) => ({
  providers: t.field({ type: [ProviderHealthType], resolve: (h) => h.providers }),
  warnings: t.field({
    type: [HealthWarningType],
    description:
      'What to act on that is no failure: a model answering without tools, the offline embedder, a provider resting.',
    resolve: (h) => h.warnings,
  }),
}));
