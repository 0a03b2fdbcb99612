// One run in full: status, trigger, times and counts, what stopped or undid it, its report and
// its introspection turns in order.
import { useI18n } from '../../lib/i18n.js';
import type { RunDetail } from '../../lib/reflectionQueries.js';
import { FINISHED, STATUS_TONE, triggerText } from '../../lib/reflectionText.js';
import { Empty, StatusBadge, Time } from '../ui.js';
import { IntrospectionCard } from './IntrospectionCard.js';

export function RunDetailView(p: { run: RunDetail }) {
  const r = p.run;
  const { t } = useI18n();
  return (
    <div class="reflection-detail" data-testid="reflection-detail">
      <div class="kv-row">
        <span>
          <StatusBadge tone={STATUS_TONE[r.status]} status={r.status} />
        </span>
        <span>
          {t('reflections.trigger')} <strong>{triggerText(t, r.trigger)}</strong>
        </span>
        <span>
          {t('reflections.started')} <Time at={r.startedAt} />
        </span>
        <span>
          {t('reflections.ended')} <Time at={r.endedAt} />
        </span>
        <span>
          {t('reflections.modelCalls')} <strong>{r.budget.calls}</strong>
        </span>
        <span>
          {t('reflections.memoriesChanged')} <strong>{r.memoryChanges.length}</strong>
        </span>
      </div>
      <div class="muted small">{t('reflections.goal', { goal: r.goal })}</div>
      <RunNotices run={r} />
      <h3>{t('reflections.report')}</h3>
      {r.report ? (
        <div class="prewrap report" data-testid="reflection-report">
          {r.report}
        </div>
      ) : (
        <Empty>{t(FINISHED.has(r.status) ? 'reflections.noReport' : 'reflections.noReportYet')}</Empty>
      )}
      <h3>{t('reflections.turns')}</h3>
      {r.turns.length === 0 ? (
        <Empty>{t(FINISHED.has(r.status) ? 'reflections.noTurns' : 'reflections.noTurnsYet')}</Empty>
      ) : (
        <div class="cards" data-testid="introspection-turns">
          {[...r.turns]
            .sort((a, b) => a.seq - b.seq)
            .map((turn) => (
              <IntrospectionCard t={turn} />
            ))}
        </div>
      )}
    </div>
  );
}

/** What stopped or undid the run: its failure, the budget it hit, its rollback. */
function RunNotices(p: { run: RunDetail }) {
  const r = p.run;
  const { t } = useI18n();
  return (
    <>
      {r.failure && (
        <div class="error-box" role="alert">
          <strong>{r.failure.code}</strong>
          {r.failure.step && t('reflections.atStep', { step: r.failure.step })}: {r.failure.message}
        </div>
      )}
      {r.budgetHit && (
        <div class="notice">
          {t('reflections.budgetHit', {
            resource: r.budgetHit.resource,
            step: r.budgetHit.step,
            when: r.budgetHit.when,
            used: r.budgetHit.used,
            limit: r.budgetHit.limit,
            wanted: r.budgetHit.wanted,
          })}
        </div>
      )}
      {r.rollback && (
        <div class="note">
          {t('reflections.rolledBackBy', { by: r.rollback.by })} <Time at={r.rollback.at} />:{' '}
          {t('reflections.rollbackCounts', {
            removed: r.rollback.removedIds.length,
            restored: r.rollback.restoredIds.length,
          })}
          {r.rollback.innerRestored ? t('reflections.rollbackInner') : ''}.
        </div>
      )}
    </>
  );
}
