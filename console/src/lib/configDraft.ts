// The config page's fields and draft: the field list's query, the config query built from it,
// each field's value and range as text, a draft of the stored values, and the patch a draft makes.
import { graphql, type ResultOf } from './graphql.js';
import type { I18n } from './i18n.js';
import { isMessageKey } from '../i18n/messages.js';

export const FIELDS = graphql(`
  query ConfigFields {
    configFields {
      path
      type
      min
      max
      values
      maxItems
      maxLength
      default
      doc
    }
  }
`);

/** One field: `type` is int, number, bool, enum or list (of strings). */
export type FieldInfo = ResultOf<typeof FIELDS>['configFields'][number];
export type Sections = Record<string, Record<string, unknown>>;
/** The config as the runtime query asks for it: fixed fields, then a section per field path. */
export interface ConfigData {
  version: number;
  updatedAt: string | null;
  ignored: string[];
  [section: string]: unknown;
}

/** The config query names every field, so it is built from the API's own list of fields. */
export function configSelection(fields: FieldInfo[]): string {
  const bySection = new Map<string, string[]>();
  for (const f of fields) {
    const [s, k] = f.path.split('.') as [string, string];
    bySection.set(s, [...(bySection.get(s) ?? []), k]);
  }
  return `version updatedAt ignored ${[...bySection].map(([s, ks]) => `${s} { ${ks.join(' ')} }`).join(' ')}`;
}

export const valueAt = (c: ConfigData | undefined, path: string): unknown => {
  const [s, k] = path.split('.') as [string, string];
  return (c?.[s] as Record<string, unknown> | undefined)?.[k];
};

export function rangeText(f: FieldInfo, t: I18n['t']): string {
  if (f.type === 'int' || f.type === 'number')
    return `${f.min?.toLocaleString('en-US')} – ${f.max?.toLocaleString('en-US')}`;
  if (f.type === 'bool') return t('config.onOff');
  if (f.type === 'list') return t('config.listRange', { items: f.maxItems ?? '?', length: f.maxLength ?? '?' });
  return (f.values ?? []).join(' | ');
}

/** A section's heading (thresholds → Thresholds); a section the catalogue does not know, capitalised. */
export function sectionTitle(s: string, t: I18n['t']): string {
  const key = `config.section.${s}`;
  return isMessageKey(key) ? t(key) : s[0]!.toUpperCase() + s.slice(1);
}

export type Draft = Record<string, string | boolean>;

/** A stored value as the form edits it: a bool as a boolean, a list one entry per line, the rest as text. */
export function asDraft(f: Pick<FieldInfo, 'type'>, v: unknown): string | boolean {
  if (f.type === 'bool') return Boolean(v);
  if (f.type === 'list') return Array.isArray(v) ? v.map(String).join('\n') : '';
  return String(v);
}

/** The stored values as the form edits them. */
export const draftOf = (fields: FieldInfo[], current: ConfigData): Draft =>
  Object.fromEntries(fields.map((f) => [f.path, asDraft(f, valueAt(current, f.path))]));

/** A list's lines as its entries: trimmed, blank lines left out (the API checks the rest). */
const listOf = (raw: string | boolean | undefined): string[] =>
  String(raw ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** The changed fields as an updateConfig patch, and the local problems (an int that is no Int). */
export function patchOf(changed: FieldInfo[], draft: Draft, t: I18n['t']) {
  const local: Record<string, string> = {};
  const patch: Sections = {};
  for (const f of changed) {
    const raw = draft[f.path];
    let v: unknown = raw;
    if (f.type === 'int') {
      v = Number(String(raw).trim());
      // Only what cannot be sent as a GraphQL Int is caught here; ranges are the API's to check.
      if (String(raw).trim() === '' || !Number.isSafeInteger(v) || Math.abs(v as number) > 2 ** 31 - 1) {
        local[f.path] = t('config.wholeNumber', { path: f.path, range: rangeText(f, t) });
        continue;
      }
    }
    if (f.type === 'list') v = listOf(raw);
    if (f.type === 'number') {
      v = Number(String(raw).trim());
      if (String(raw).trim() === '' || !Number.isFinite(v)) {
        local[f.path] = t('config.number', { path: f.path, range: rangeText(f, t) });
        continue;
      }
    }
    const [s, k] = f.path.split('.') as [string, string];
    (patch[s] ??= {})[k] = v;
  }
  return { patch, local };
}
