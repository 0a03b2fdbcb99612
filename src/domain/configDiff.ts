// What a config write changed, field by field, for the config history. Prices are compared per
// model (`pricing.<model>`), so adding one model's price does not list every other model.
import type { GatewayConfig } from './config.js';
import type { ModelPrice } from './configPricing.js';

export type ConfigValue = number | boolean | string | { promptPerMillion: number; completionPerMillion: number } | null;

export interface ConfigChange {
  path: string;
  from: ConfigValue;
  to: ConfigValue;
}

const SECTIONS = ['thresholds', 'limits', 'preferences'] as const satisfies ReadonlyArray<keyof GatewayConfig>;

function prices(list: readonly ModelPrice[] | undefined): Map<string, ConfigValue> {
  return new Map(
    (list ?? []).map((p) => [
      p.model,
      { promptPerMillion: p.promptPerMillion, completionPerMillion: p.completionPerMillion },
    ]),
  );
}

export function configChanges(before: GatewayConfig, after: GatewayConfig): ConfigChange[] {
  const out: ConfigChange[] = [];
  for (const s of SECTIONS) {
    const a = before[s] as Record<string, ConfigValue>;
    const b = after[s] as Record<string, ConfigValue>;
    for (const k of Object.keys(b))
      if (a[k] !== b[k]) out.push({ path: `${s}.${k}`, from: a[k] ?? null, to: b[k] ?? null });
  }
  const was = prices(before.pricing);
  const now = prices(after.pricing);
  for (const model of [...new Set([...was.keys(), ...now.keys()])]) {
    const from = was.get(model) ?? null;
    const to = now.get(model) ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out.push({ path: `pricing.${model}`, from, to });
  }
  return out;
}
