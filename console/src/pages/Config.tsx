// The config document (seed 001's thresholds, limits and preferences) with every field's range
// and default. Admins change it here; the API validates (CONFIG_INVALID names field and range,
// shown beside the input) and the change applies on the next turn in every process.
import { useState } from 'preact/hooks';
import { useCan } from '../lib/viewerContext.js';
import { sectionTitle } from '../lib/configDraft.js';
import { CodedProblem, ErrorBox, Loading, Panel, ReadOnlyNote } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { useLeaveGuard } from '../lib/leaveGuard.js';
import { PricingPanel } from '../components/config/PricingPanel.js';
import { ConfigHistory } from '../components/config/ConfigHistory.js';
import { ConfigHeader } from '../components/config/ConfigHeader.js';
import { ConfigFieldRow } from '../components/config/ConfigFieldRow.js';
import { useConfigForm } from '../components/config/useConfigForm.js';

export function ConfigPage() {
  const { t } = useI18n();
  const canEdit = useCan('admin');
  const form = useConfigForm();
  const { fields, current, changed, errors, other, errorCode, saved } = form;
  const [pricingDirty, setPricingDirty] = useState(false);
  useLeaveGuard(changed.length > 0 || pricingDirty, t('trace.unsaved.leave'));
  if (form.info.error || form.cfg.error) return <ErrorBox error={form.info.error ?? form.cfg.error} />;
  if (!current) return <Loading what="the config" />;
  const sections = [...new Set(fields.map((f) => f.path.split('.')[0]!))];
  return (
    <form onSubmit={form.save} noValidate>
      <ConfigHeader form={form} current={current} canEdit={canEdit} />
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
              .map((f) => (
                <ConfigFieldRow
                  field={f}
                  value={form.draft[f.path]}
                  canEdit={canEdit}
                  changed={changed.includes(f)}
                  error={errors[f.path]}
                  errorCode={errorCode}
                  onChange={(v) => form.edit(f.path, v)}
                />
              ))}
          </div>
        </Panel>
      ))}
      <PricingPanel
        canEdit={canEdit}
        version={current.version}
        onDirty={setPricingDirty}
        onSaved={() => void form.cfg.reload()}
      />
      <ConfigHistory version={current.version} />
    </form>
  );
}
