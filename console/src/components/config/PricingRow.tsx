// Why a component: one model's editable price row (model, prompt and completion prices, remove) is its own job.
import type { MessageKey } from '../../i18n/messages.js';
import { useI18n } from '../../lib/i18n.js';
import type { PriceRow } from './usePricingEditor.js';

/** A price per million tokens: a non-negative number, labelled for the stacked (phone) layout too. */
function PriceCell(p: { label: MessageKey; value: string; canEdit: boolean; onInput: (v: string) => void }) {
  const { t } = useI18n();
  return (
    <td data-label={t(p.label)}>
      <input
        aria-label={t(p.label)}
        type="number"
        step="any"
        min="0"
        value={p.value}
        disabled={!p.canEdit}
        onInput={(e) => p.onInput(e.currentTarget.value)}
      />
    </td>
  );
}

export function PricingRow(p: {
  r: PriceRow;
  canEdit: boolean;
  onSet: (k: keyof PriceRow, v: string) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const { r } = p;
  return (
    <tr data-testid="pricing-row">
      <td data-label={t('trace.pricing.model')}>
        <input
          aria-label={t('trace.pricing.model')}
          value={r.model}
          disabled={!p.canEdit}
          onInput={(e) => p.onSet('model', e.currentTarget.value)}
        />
      </td>
      <PriceCell
        label="trace.pricing.prompt"
        value={r.prompt}
        canEdit={p.canEdit}
        onInput={(v) => p.onSet('prompt', v)}
      />
      <PriceCell
        label="trace.pricing.completion"
        value={r.completion}
        canEdit={p.canEdit}
        onInput={(v) => p.onSet('completion', v)}
      />
      <td>
        {p.canEdit && (
          <button type="button" class="small" onClick={p.onRemove}>
            {t('trace.pricing.remove')}
          </button>
        )}
      </td>
    </tr>
  );
}
