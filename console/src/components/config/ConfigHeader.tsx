// The config page's header: the version and when it changed, and (admins) restore and save.
import type { ConfigData } from '../../lib/configDraft.js';
import type { ConfigForm } from './useConfigForm.js';
import { useI18n } from '../../lib/i18n.js';
import { PageHeader, Time } from '../ui.js';

export function ConfigHeader(p: { form: ConfigForm; current: ConfigData; canEdit: boolean }) {
  const { t } = useI18n();
  const { busy, changed } = p.form;
  const { current } = p;
  return (
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
        p.canEdit && (
          <>
            <button type="button" onClick={p.form.reset} disabled={busy} data-testid="config-reset">
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
  );
}
