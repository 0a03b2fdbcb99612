// Why components: the edit box and the operator's buttons are the row's interactive parts, apart from its facts.
import { useI18n } from '../../lib/i18n.js';
import type { MessageKey } from '../../i18n/messages.js';
import { Select } from '../ui.js';
import type { MemoryView } from '../MemoryRow.js';
import type { MemoryActionsState } from './useMemoryActions.js';

const VISIBILITIES: Array<{ value: MemoryView['visibility']; label: MessageKey }> = [
  { value: 'ORIGIN', label: 'memory.onlyWhereLearned' },
  { value: 'SHARED', label: 'memory.shared' },
];

/** The new text for an entry that replaces this one (the old entry stays in the chain). */
export function MemoryEdit(p: { a: MemoryActionsState }) {
  const { t } = useI18n();
  const { a } = p;
  return (
    <div class="memory-edit">
      <textarea rows={3} value={a.text} onInput={(e) => a.setText(e.currentTarget.value)} />
      <div class="row">
        <button class="primary small" disabled={a.busy || !a.text.trim()} onClick={a.edit}>
          {t('memory.saveNew')}
        </button>
        <button class="small" onClick={() => a.setEditing(false)}>
          {t('common.cancel')}
        </button>
        <span class="muted small">{t('memory.oldStays')}</span>
      </div>
    </div>
  );
}

/** Edit, retire, and where the memory may be recalled. */
export function MemoryActions(p: { m: MemoryView; a: MemoryActionsState }) {
  const { t } = useI18n();
  const { m, a } = p;
  return (
    <div class="memory-actions">
      <button class="small" onClick={() => a.setEditing(true)} data-testid="memory-edit">
        {t('setup.common.edit')}
      </button>
      <button class="small danger" disabled={a.busy} onClick={() => confirm(t('memory.retireConfirm')) && a.retire()}>
        {t('memory.retire')}
      </button>
      <Select
        label={t('memory.recalledLabel')}
        value={m.visibility}
        options={VISIBILITIES.map((v) => ({ value: v.value, label: t(v.label) }))}
        testId="memory-visibility"
        onChange={(v) => void a.setVisibility(v)}
      />
    </div>
  );
}
