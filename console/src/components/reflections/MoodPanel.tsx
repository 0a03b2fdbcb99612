// The agent's mood, schedule and values now, as one panel.
import { useI18n } from '../../lib/i18n.js';
import type { ReflectionStateView } from '../../lib/reflectionQueries.js';
import { signed } from '../../lib/reflectionText.js';
import { Loading, Panel } from '../ui.js';

export function MoodPanel(p: { state: ReflectionStateView | undefined }) {
  const { t } = useI18n();
  const st = p.state;
  return (
    <Panel title={t('reflections.moodValues')}>
      {!st ? (
        <Loading what="state" />
      ) : (
        <div data-testid="reflection-state">
          <div class="kv-row">
            <span>
              {t('reflections.mood')} <strong data-testid="mood">{st.mood.label}</strong>
            </span>
            <span>
              {t('reflections.valence')} <strong>{signed(st.mood.valence)}</strong>
            </span>
            <span>
              {t('reflections.arousal')} <strong>{st.mood.arousal.toFixed(2)}</strong>
            </span>
            <span>
              {t('reflections.schedule')} <strong>{st.settings.enabled ? st.settings.cron : t('status.off')}</strong>
            </span>
            <span>
              {t('reflections.setBy')} <strong class="mono small">{st.valuesSetBy ?? t('reflections.defaults')}</strong>
            </span>
          </div>
          <ValueBars values={st.values} />
        </div>
      )}
    </Panel>
  );
}

/** Each value's weight as a bar. */
function ValueBars(p: { values: ReflectionStateView['values'] }) {
  return (
    <div class="hbars values" data-testid="values">
      {p.values.map((v) => (
        <div class="hbar" data-testid="value">
          <span>{v.name}</span>
          <div class="hbar-track">
            <i style={{ width: `${Math.round(v.weight * 100)}%` }} />
          </div>
          <span class="hbar-value">{v.weight.toFixed(2)}</span>
        </div>
      ))}
    </div>
  );
}
