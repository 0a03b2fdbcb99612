// What a config write changed, field by field, for the config history. Prices are compared per
// model (`pricing.<model>`), so adding one model's price does not list every other model.
import { CONFIG_FIELDS, type ConfigSection, type GatewayConfig } from './config.js';
import type { ModelPrice } from './configPricing.js';

export type ConfigValue =
  number | boolean | string | string[] | { promptPerMillion: number; completionPerMillion: number } | null;

export interface ConfigChange {
  path: string;
  from: ConfigValue;
  to: ConfigValue;
}

// Every section of the table, so a section added there has its history too.
const SECTIONS = Object.keys(CONFIG_FIELDS) as ConfigSection[];
/** Equal values; lists (moderation keywords) by their entries. */
const same = (a: ConfigValue | undefined, b: ConfigValue | undefined): boolean =>
  Array.isArray(a) || Array.isArray(b) ? JSON.stringify(a) === JSON.stringify(b) : a === b;

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
      if (!same(a[k], b[k])) out.push({ path: `${s}.${k}`, from: a[k] ?? null, to: b[k] ?? null });
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
