// The open run's panel: a close action, its loading error, and the run once it has loaded.
import { useI18n } from '../../lib/i18n.js';
import type { RunDetail } from '../../lib/reflectionQueries.js';
import { ErrorBox, Loading, Panel } from '../ui.js';
import { RunDetailView } from './RunDetail.js';

export function RunPanel(p: { run: RunDetail | undefined; loading: boolean; error: unknown; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Panel
      title={t('reflections.run')}
      actions={
        <button class="link" onClick={p.onClose}>
          {t('reflections.close')}
        </button>
      }
    >
      <ErrorBox error={p.error} />
      {!p.run ? p.loading ? <Loading what="run" /> : null : <RunDetailView run={p.run} />}
    </Panel>
  );
}
