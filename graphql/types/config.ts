// The config document (thresholds, limits, preferences; model prices) as typed objects built from
// the one table in src/domain/config.ts, its validation ranges, and the admin-only update and
// reset. A change applies on the next turn in every process (the document is read per turn).
import { builder } from '../builder.js';
import { CONFIG_FIELDS, configFieldInfo, type ConfigFieldInfo, type ConfigSection } from '../../src/domain/config.js';
import type { EffectiveConfig } from '../../src/store/config.js';
import { ModelPriceInput, ModelPriceType } from './configPricing.js';

type Field = { type: 'int' | 'number' | 'bool' | 'enum' | 'list'; doc: string };
// A list field (moderation keywords) is a list of strings; the rest are scalars.
const SCALARS = { int: 'Int', number: 'Float', bool: 'Boolean', enum: 'String', list: ['String'] } as const;
const scalarOf = (f: Field) => SCALARS[f.type] as 'Int' | 'Float' | 'Boolean' | 'String' | ['String'];
const typeName = (s: string) => `Config${s[0]!.toUpperCase()}${s.slice(1)}`;
const sections = Object.keys(CONFIG_FIELDS) as ConfigSection[];
const fieldsOf = (s: ConfigSection) => Object.entries(CONFIG_FIELDS[s]) as Array<[string, Field]>;

const sectionTypes = Object.fromEntries(
  sections.map((s) => [
    s,
    builder.objectRef<Record<string, unknown>>(typeName(s)).implement({
      fields: (t) =>
        Object.fromEntries(
          fieldsOf(s).map(([key, f]) => [
            key,
            t.field({ type: scalarOf(f), description: f.doc, resolve: (v) => v[key] as never }),
          ]),
        ),
    }),
  ]),
);

const sectionInputs = Object.fromEntries(
  sections.map((s) => [
    s,
    builder.inputType(`${typeName(s)}Input`, {
      fields: (t) =>
        Object.fromEntries(
          fieldsOf(s).map(([key, f]) => [key, t.field({ type: scalarOf(f), required: false, description: f.doc })]),
        ),
    }),
  ]),
);

export const ConfigType = builder.objectRef<EffectiveConfig>('Config').implement({
  description: 'The config document in effect: every field has a value (defaults fill gaps).',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Counts updates; 0 while only defaults apply.' }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.updatedAt ?? null }),
    ignored: t.exposeStringList('ignored', {
      description: 'Stored fields that were invalid and replaced by defaults.',
    }),
    ...Object.fromEntries(
      sections.map((s) => [
        s,
        t.field({ type: sectionTypes[s]!, resolve: (c) => c.config[s] as Record<string, unknown> }),
      ]),
    ),
    pricing: t.field({
      type: [ModelPriceType],
      description: 'Model prices, when set: the console shows each call’s and turn’s cost from them.',
      resolve: (c) => c.config.pricing ?? [],
    }),
  }),
});

const ConfigFieldInfoType = builder.objectRef<ConfigFieldInfo>('ConfigFieldInfo').implement({
  description: 'One config field, its accepted values and default.',
  fields: (t) => ({
    path: t.exposeString('path'),
    type: t.exposeString('type'),
    min: t.exposeInt('min', { nullable: true }),
    max: t.exposeInt('max', { nullable: true }),
    values: t.stringList({ nullable: true, resolve: (f) => (f.values ? [...f.values] : null) }),
    maxItems: t.exposeInt('maxItems', { nullable: true, description: 'A list: its most entries.' }),
    maxLength: t.exposeInt('maxLength', { nullable: true, description: 'A list: most characters per entry.' }),
    default: t.field({ type: 'JSON', resolve: (f) => f.default }),
    doc: t.exposeString('doc'),
  }),
});

const ConfigPatchInput = builder.inputType('ConfigPatchInput', {
  fields: (t) => ({
    ...Object.fromEntries(sections.map((s) => [s, t.field({ type: sectionInputs[s]!, required: false })])),
    pricing: t.field({
      type: [ModelPriceInput],
      required: false,
      description: 'Replaces every model price (an empty list removes them).',
    }),
  }),
});

/** GraphQL passes omitted input fields as absent and explicit nulls as null; null means "leave as is". */
function patchOf(input: Record<string, Record<string, unknown> | null | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [s, fields] of Object.entries(input)) {
    if (!fields) continue;
    if (s === 'pricing') {
      out.pricing = fields;
      continue;
    }
    const kept = Object.entries(fields).filter(([, v]) => v !== null && v !== undefined);
    if (kept.length) out[s] = Object.fromEntries(kept);
  }
  return out;
}

builder.queryFields((t) => ({
  config: t.field({ type: ConfigType, resolve: (_r, _a, ctx) => ctx.store.config.get() }),
  configFields: t.field({
    type: [ConfigFieldInfoType],
    description: 'Validation ranges and defaults of every config field.',
    resolve: () => configFieldInfo(),
  }),
}));

builder.mutationFields((t) => ({
  updateConfig: t.field({
    type: ConfigType,
    authScopes: { admin: true },
    description: 'Change some fields; out-of-range values fail with CONFIG_INVALID and change nothing.',
    args: { patch: t.arg({ type: ConfigPatchInput, required: true }) },
    resolve: (_r, { patch }, ctx) =>
      ctx.store.config.update(patchOf(patch as Record<string, Record<string, unknown>>), new Date(), ctx.viewer.name),
  }),
  resetConfig: t.field({
    type: ConfigType,
    authScopes: { admin: true },
    description: 'Restore every field to its default.',
    resolve: (_r, _a, ctx) => ctx.store.config.reset(new Date(), ctx.viewer.name),
  }),
}));
