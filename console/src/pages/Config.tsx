// The config document (seed 001's thresholds, limits and preferences) with every field's range
// and default. Admins change it here; the API validates (CONFIG_INVALID names field and range,
// shown beside the input) and the change applies on the next turn in every process.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, errorText, gql } from '../lib/api.js';
import { graphql, runtimeQuery, type ResultOf } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { useCan } from '../lib/viewerContext.js';
import { fieldErrors } from '../lib/configErrors.js';
import { CodedProblem, ErrorBox, Loading, PageHeader, Panel, ReadOnlyNote, Time } from '../components/ui.js';
import { useI18n, type I18n } from '../lib/i18n.js';
import { isMessageKey } from '../i18n/messages.js';
import { useLeaveGuard } from '../lib/leaveGuard.js';
import { PricingPanel } from '../components/config/PricingPanel.js';
import { ConfigHistory } from '../components/config/ConfigHistory.js';

const FIELDS = graphql(`
  query ConfigFields {
    configFields {
      path
      type
      min
      max
      values
      default
      doc
    }
  }
`);
const UPDATE = graphql(`
  mutation Update($patch: ConfigPatchInput!) {
    updateConfig(patch: $patch) {
      version
    }
  }
`);
const RESET = graphql(`
  mutation Reset {
    resetConfig {
      version
    }
  }
`);

/** One field: `type` is int, bool or enum. */
type FieldInfo = ResultOf<typeof FIELDS>['configFields'][number];
type Sections = Record<string, Record<string, unknown>>;
/** The config as the runtime query asks for it: fixed fields, then a section per field path. */
interface ConfigData {
  version: number;
  updatedAt: string | null;
  ignored: string[];
  [section: string]: unknown;
}

/** The config query names every field, so it is built from the API's own list of fields. */
function configSelection(fields: FieldInfo[]): string {
  const bySection = new Map<string, string[]>();
  for (const f of fields) {
    const [s, k] = f.path.split('.') as [string, string];
    bySection.set(s, [...(bySection.get(s) ?? []), k]);
  }
  return `version updatedAt ignored ${[...bySection].map(([s, ks]) => `${s} { ${ks.join(' ')} }`).join(' ')}`;
}

const valueAt = (c: ConfigData | undefined, path: string): unknown => {
  const [s, k] = path.split('.') as [string, string];
  return (c?.[s] as Record<string, unknown> | undefined)?.[k];
};

function rangeText(f: FieldInfo, t: I18n['t']): string {
  if (f.type === 'int') return `${f.min?.toLocaleString('en-US')} – ${f.max?.toLocaleString('en-US')}`;
  if (f.type === 'bool') return t('config.onOff');
  return (f.values ?? []).join(' | ');
}

/** A section's heading (thresholds → Thresholds); a section the catalogue does not know, capitalised. */
function sectionTitle(s: string, t: I18n['t']): string {
  const key = `config.section.${s}`;
  return isMessageKey(key) ? t(key) : s[0]!.toUpperCase() + s.slice(1);
}

export function ConfigPage() {
  const { t, locale } = useI18n();
  // The server's help text is English; other languages use the catalogue's copy when it has one.
  const help = (f: FieldInfo): string => {
    const key = `config.field.${f.path}`;
    return locale !== 'en' && isMessageKey(key) ? t(key) : f.doc;
  };
  const canEdit = useCan('admin');
  const info = useQuery(FIELDS);
  const fields = info.data?.configFields ?? [];
  // Always a valid selection (the fixed fields), so it parses before the field list arrives too.
  const selection = configSelection(fields);
  const query = useMemo(
    () => runtimeQuery<{ config: ConfigData }>(`query Config { config { ${selection} } }`),
    [selection],
  );
  const cfg = useQuery(query, {}, { skip: !fields.length });
  const current = cfg.data?.config;
  const [draft, setDraft] = useState<Record<string, string | boolean>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string[]>([]);
  // CONFIG_INVALID while `errors` and `other` hold the API's problems (shown with the code).
  const [errorCode, setErrorCode] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!current) return;
    setDraft(
      Object.fromEntries(
        fields.map((f) => [
          f.path,
          f.type === 'bool' ? Boolean(valueAt(current, f.path)) : String(valueAt(current, f.path)),
        ]),
      ),
    );
  }, [current]);

  const changed = fields.filter((f) => current && String(draft[f.path]) !== String(valueAt(current, f.path)));
  const [pricingDirty, setPricingDirty] = useState(false);
  useLeaveGuard(changed.length > 0 || pricingDirty, t('trace.unsaved.leave'));

  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(null);
    setOther([]);
    setErrorCode(null);
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
      const [s, k] = f.path.split('.') as [string, string];
      (patch[s] ??= {})[k] = v;
    }
    setErrors(local);
    if (Object.keys(local).length || !changed.length) return;
    setBusy(true);
    try {
      // Sections and keys come from the API's own field list, and the API checks the values.
      await gql(UPDATE, { patch });
      setSaved(t(changed.length > 1 ? 'config.savedMany' : 'config.savedOne', { n: changed.length }));
      await cfg.reload();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFIG_INVALID') {
        const r = fieldErrors(
          err.message,
          fields.map((f) => f.path),
        );
        setErrors(r.byPath);
        setOther(r.other);
        setErrorCode(err.code);
      } else setOther([errorText(err)]);
    } finally {
      setBusy(false);
    }
  };

  const reset = async () => {
    if (!confirm(t('config.resetConfirm'))) return;
    setBusy(true);
    try {
      await gql(RESET);
      setErrors({});
      setSaved(t('config.resetDone'));
      await cfg.reload();
    } catch (err) {
      setErrorCode(null);
      setOther([errorText(err)]);
    } finally {
      setBusy(false);
    }
  };

  if (info.error || cfg.error) return <ErrorBox error={info.error ?? cfg.error} />;
  if (!current) return <Loading what="the config" />;
  const sections = [...new Set(fields.map((f) => f.path.split('.')[0]!))];

  return (
    <form onSubmit={save} noValidate>
      <PageHeader
        title={t('config.title')}
        sub={
          <>
            {t('config.version', { v: current.version })}
            {current.updatedAt && (
              <>
                {t('config.changed')}
                <Time at={current.updatedAt} />
              </>
            )}
            {t('config.applies')}
          </>
        }
        actions={
          canEdit && (
            <>
              <button type="button" onClick={reset} disabled={busy} data-testid="config-reset">
                {t('config.restore')}
              </button>
              <button type="submit" class="primary" disabled={busy || changed.length === 0} data-testid="config-save">
                {busy
                  ? t('config.saving')
                  : changed.length
                    ? t(changed.length > 1 ? 'config.saveMany' : 'config.saveOne', { n: changed.length })
                    : t('common.save')}
              </button>
            </>
          )
        }
      />
      {!canEdit && <ReadOnlyNote needs="admin" />}
      {current.ignored.length > 0 && (
        <div class="error-box">{t('config.ignored', { list: current.ignored.join(', ') })}</div>
      )}
      {saved && (
        <div class="notice" data-testid="config-saved">
          {saved}
        </div>
      )}
      {other.length > 0 && (
        <div class="error-box" role="alert">
          {errorCode ? <CodedProblem code={errorCode} message={other.join('; ')} /> : other.join('; ')}
        </div>
      )}
      {sections.map((s) => (
        <Panel title={sectionTitle(s, t)}>
          <div class="config-grid">
            {fields
              .filter((f) => f.path.startsWith(`${s}.`))
              .map((f) => {
                const key = f.path.split('.')[1]!;
                const value = draft[f.path];
                const isChanged = changed.includes(f);
                const error = errors[f.path];
                const set = (v: string | boolean) => setDraft((d) => ({ ...d, [f.path]: v }));
                return (
                  <div
                    class={`config-field${error ? ' invalid' : ''}${isChanged ? ' changed' : ''}`}
                    data-testid={`config-${f.path}`}
                  >
                    <label for={f.path}>
                      <span class="mono">{key}</span>
                      <span class="muted small">{help(f)}</span>
                    </label>
                    <div class="config-input">
                      {f.type === 'bool' ? (
                        <input
                          id={f.path}
                          type="checkbox"
                          checked={value === true}
                          disabled={!canEdit}
                          onChange={(e) => set(e.currentTarget.checked)}
                        />
                      ) : f.type === 'enum' ? (
                        <select
                          id={f.path}
                          value={String(value)}
                          disabled={!canEdit}
                          onChange={(e) => set(e.currentTarget.value)}
                        >
                          {(f.values ?? []).map((v) => (
                            <option value={v}>{v}</option>
                          ))}
                        </select>
                      ) : (
                        <input
                          id={f.path}
                          type="number"
                          inputMode="numeric"
                          value={String(value ?? '')}
                          disabled={!canEdit}
                          aria-invalid={error ? 'true' : undefined}
                          onInput={(e) => set(e.currentTarget.value)}
                        />
                      )}
                      <span class="range">
                        {rangeText(f, t)} · {t('config.default', { v: String(f.default) })}
                      </span>
                    </div>
                    {error && (
                      <div class="field-error" data-testid="config-error">
                        <CodedProblem code={errorCode} message={error} />
                      </div>
                    )}
                  </div>
                );
              })}
          </div>
        </Panel>
      ))}
      <PricingPanel
        canEdit={canEdit}
        version={current.version}
        onDirty={setPricingDirty}
        onSaved={() => void cfg.reload()}
      />
      <ConfigHistory version={current.version} />
    </form>
  );
}
