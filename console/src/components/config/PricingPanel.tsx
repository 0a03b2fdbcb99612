// Model prices (optional): per model, a million prompt and completion tokens' price. Saved as one
// list with updateConfig (the API checks the ranges); traces show costs from them.
import { useI18n } from '../../lib/i18n.js';
import { Empty, ErrorBox, Panel } from '../ui.js';
import { usePricingEditor } from './usePricingEditor.js';
import { PricingRow } from './PricingRow.js';

export function PricingPanel(p: { canEdit: boolean; version: number; onDirty(d: boolean): void; onSaved(): void }) {
  const { t } = useI18n();
  const { rows, error, saved, busy, dirty, set, remove, add, save } = usePricingEditor(p);
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
              <PricingRow r={r} canEdit={p.canEdit} onSet={(k, v) => set(i, k, v)} onRemove={() => remove(i)} />
            ))}
          </tbody>
        </table>
      )}
      <ErrorBox error={error} />
      {saved && !dirty && <div class="notice">{t('trace.pricing.saved')}</div>}
      {p.canEdit && (
        <div class="row">
          <button type="button" onClick={add} data-testid="pricing-add">
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
