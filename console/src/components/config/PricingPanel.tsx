// Model prices (optional): per model, a million prompt and completion tokens' price. Saved as one
// list with updateConfig (the API checks the ranges); traces show costs from them.
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { ModelPriceFields, type ModelPrice } from '../../lib/cost.js';
import { Empty, ErrorBox, Panel } from '../ui.js';

const PRICING = graphql(
  `
    query ConfigPricing {
      config {
        version
        pricing {
          ...ModelPriceFields
        }
      }
    }
  `,
  [ModelPriceFields],
);
const SAVE = graphql(`
  mutation SavePricing($patch: ConfigPatchInput!) {
    updateConfig(patch: $patch) {
      version
    }
  }
`);

type Row = { model: string; prompt: string; completion: string };
const rowsOf = (list: ModelPrice[]): Row[] =>
  list.map((p) => ({ model: p.model, prompt: String(p.promptPerMillion), completion: String(p.completionPerMillion) }));
const same = (a: Row[], b: Row[]) => JSON.stringify(a) === JSON.stringify(b);

export function PricingPanel(p: { canEdit: boolean; version: number; onDirty(d: boolean): void; onSaved(): void }) {
  const { t } = useI18n();
  const q = useQuery(PRICING);
  const stored = rowsOf(q.data?.config.pricing ?? []);
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  // Another save (the fields above, a reset) moves the version: read the prices again.
  const seen = useRef(p.version);
  useEffect(() => {
    if (p.version !== seen.current) void q.reload();
    seen.current = p.version;
  }, [p.version]);
  useEffect(() => setRows(stored), [JSON.stringify(stored)]);
  const dirty = !same(rows, stored);
  useEffect(() => p.onDirty(dirty), [dirty]);

  const set = (i: number, k: keyof Row, v: string) => setRows((r) => r.map((x, j) => (j === i ? { ...x, [k]: v } : x)));
  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const pricing = rows.map((r) => ({
        model: r.model.trim(),
        promptPerMillion: Number(r.prompt),
        completionPerMillion: Number(r.completion),
      }));
      await gql(SAVE, { patch: { pricing } });
      await q.reload();
      setSaved(true);
      p.onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={t('trace.pricing.title')}>
      <div class="muted small">{t('trace.pricing.help')}</div>
      {rows.length === 0 ? (
        <Empty>{t('trace.pricing.empty')}</Empty>
      ) : (
        <table class="table stack compact" data-testid="pricing">
          <thead>
            <tr>
              <th scope="col">{t('trace.pricing.model')}</th>
              <th scope="col">{t('trace.pricing.prompt')}</th>
              <th scope="col">{t('trace.pricing.completion')}</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr data-testid="pricing-row">
                <td data-label={t('trace.pricing.model')}>
                  <input
                    aria-label={t('trace.pricing.model')}
                    value={r.model}
                    disabled={!p.canEdit}
                    onInput={(e) => set(i, 'model', e.currentTarget.value)}
                  />
                </td>
                <td data-label={t('trace.pricing.prompt')}>
                  <input
                    aria-label={t('trace.pricing.prompt')}
                    type="number"
                    step="any"
                    min="0"
                    value={r.prompt}
                    disabled={!p.canEdit}
                    onInput={(e) => set(i, 'prompt', e.currentTarget.value)}
                  />
                </td>
                <td data-label={t('trace.pricing.completion')}>
                  <input
                    aria-label={t('trace.pricing.completion')}
                    type="number"
                    step="any"
                    min="0"
                    value={r.completion}
                    disabled={!p.canEdit}
                    onInput={(e) => set(i, 'completion', e.currentTarget.value)}
                  />
                </td>
                <td>
                  {p.canEdit && (
                    <button type="button" class="small" onClick={() => setRows((x) => x.filter((_, j) => j !== i))}>
                      {t('trace.pricing.remove')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorBox error={error} />
      {saved && !dirty && <div class="notice">{t('trace.pricing.saved')}</div>}
      {p.canEdit && (
        <div class="row">
          <button
            type="button"
            onClick={() => setRows((x) => [...x, { model: '', prompt: '0', completion: '0' }])}
            data-testid="pricing-add"
          >
            {t('trace.pricing.add')}
          </button>
          <button type="button" class="primary" disabled={busy || !dirty} onClick={save} data-testid="pricing-save">
            {t('trace.pricing.save')}
          </button>
        </div>
      )}
    </Panel>
  );
}
