// The config page's form state: the field list and the config read with it, the draft and what
// differs from the record, the API's problems by field, and saving or restoring the defaults.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, errorText, gql } from '../../lib/api.js';
import { fieldErrors } from '../../lib/configErrors.js';
import {
  asDraft,
  configSelection,
  draftOf,
  FIELDS,
  patchOf,
  valueAt,
  type ConfigData,
  type Draft,
} from '../../lib/configDraft.js';
import { graphql, runtimeQuery } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';

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

/** The fields and the config; the query names every field, so it waits for the field list. */
function useConfig() {
  const info = useQuery(FIELDS);
  const fields = info.data?.configFields ?? [];
  // Always a valid selection (the fixed fields), so it parses before the field list arrives too.
  const selection = configSelection(fields);
  const query = useMemo(
    () => runtimeQuery<{ config: ConfigData }>(`query Config { config { ${selection} } }`),
    [selection],
  );
  const cfg = useQuery(query, {}, { skip: !fields.length });
  return { info, fields, cfg, current: cfg.data?.config };
}

export function useConfigForm() {
  const { t } = useI18n();
  const { info, fields, cfg, current } = useConfig();
  const [draft, setDraft] = useState<Draft>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string[]>([]);
  // CONFIG_INVALID while `errors` and `other` hold the API's problems (shown with the code).
  const [errorCode, setErrorCode] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (current) setDraft(draftOf(fields, current));
  }, [current]);
  const changed = fields.filter(
    (f) => current && String(draft[f.path]) !== String(asDraft(f, valueAt(current, f.path))),
  );

  const busyWhile = async (fn: () => Promise<void>, onError: (err: unknown) => void) => {
    setBusy(true);
    try {
      await fn();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  };
  const refused = (err: unknown) => {
    if (err instanceof ApiError && err.code === 'CONFIG_INVALID') {
      const r = fieldErrors(
        err.message,
        fields.map((f) => f.path),
      );
      setErrors(r.byPath);
      setOther(r.other);
      setErrorCode(err.code);
    } else setOther([errorText(err)]);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(null);
    setOther([]);
    setErrorCode(null);
    const { patch, local } = patchOf(changed, draft, t);
    setErrors(local);
    if (Object.keys(local).length || !changed.length) return;
    await busyWhile(async () => {
      // Sections and keys come from the API's own field list, and the API checks the values.
      await gql(UPDATE, { patch });
      setSaved(t(changed.length > 1 ? 'config.savedMany' : 'config.savedOne', { n: changed.length }));
      await cfg.reload();
    }, refused);
  };
  const reset = async () => {
    if (!confirm(t('config.resetConfirm'))) return;
    await busyWhile(
      async () => {
        await gql(RESET);
        setErrors({});
        setSaved(t('config.resetDone'));
        await cfg.reload();
      },
      (err) => {
        setErrorCode(null);
        setOther([errorText(err)]);
      },
    );
  };
  const edit = (path: string, v: string | boolean) => setDraft((d) => ({ ...d, [path]: v }));
  return { info, fields, cfg, current, draft, edit, changed, errors, other, errorCode, saved, busy, save, reset };
}

export type ConfigForm = ReturnType<typeof useConfigForm>;
