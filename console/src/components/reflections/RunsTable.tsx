// The agent's reflection runs as a table: status, trigger, budget used, rollback, and per row the
// way in to the run and, for operators, its rollback.
import { useI18n } from '../../lib/i18n.js';
import { formatNumber, formatTime } from '../../lib/time.js';
import type { RunSummary } from '../../lib/reflectionQueries.js';
import { FINISHED, STATUS_TONE, triggerText } from '../../lib/reflectionText.js';
import { Badge, StatusBadge, Time, useStatusLabel } from '../ui.js';

interface RowProps {
  agent: string;
  selected: string;
  canAct: boolean;
  busy: boolean;
  onOpen: (run: string) => void;
  onRollBack: (run: string) => void;
}

export function RunsTable(p: RowProps & { runs: RunSummary[] }) {
  const { t } = useI18n();
  return (
    <table class="table stack" data-testid="reflection-list">
      <thead>
        <tr>
          <th scope="col">{t('th.status')}</th>
          <th scope="col">{t('reflections.thTrigger')}</th>
          <th scope="col">{t('reflections.thQueued')}</th>
          <th scope="col" class="num">
            {t('th.tokens')}
          </th>
          <th scope="col" class="num">
            {t('th.memories')}
          </th>
          <th scope="col">{t('reflections.thBudgetHit')}</th>
          <th scope="col">{t('reflections.thRolledBack')}</th>
          <th scope="col" />
        </tr>
      </thead>
      <tbody>
        {p.runs.map((r) => (
          <RunRow {...p} run={r} />
        ))}
      </tbody>
    </table>
  );
}

/** One run: a click anywhere opens it. */
function RunRow(p: RowProps & { run: RunSummary }) {
  const { t } = useI18n();
  const r = p.run;
  return (
    <tr
      class={`clickable ${r.id === p.selected ? 'selected' : ''}`}
      data-testid="reflection-row"
      onClick={() => p.onOpen(r.id)}
    >
      <td data-label={t('th.status')}>
        <RunLink agent={p.agent} run={r} onOpen={p.onOpen} />
      </td>
      <td data-label={t('reflections.thTrigger')}>
        {triggerText(t, r.trigger)}
        {r.triggeredBy && <div class="muted small">{r.triggeredBy}</div>}
      </td>
      <td data-label={t('reflections.thQueued')}>
        <Time at={r.queuedAt} />
      </td>
      <td data-label={t('th.tokens')} class="num">
        {formatNumber(r.budget.usedTokens)} / {formatNumber(r.budget.maxTokens)}
      </td>
      <td data-label={t('th.memories')} class="num">
        {r.budget.usedMemories} / {r.budget.maxMemories}
      </td>
      <td data-label={t('reflections.thBudgetHit')}>
        {r.budgetHit ? (
          <span class="small">
            {t('reflections.hitAt', { resource: r.budgetHit.resource, step: r.budgetHit.step })}
          </span>
        ) : (
          <span class="muted">—</span>
        )}
      </td>
      <td data-label={t('reflections.thRolledBack')}>
        {r.rollback ? (
          <Badge tone="muted">{t('reflections.rolledBack')}</Badge>
        ) : (
          <span class="muted">{t('reflections.no')}</span>
        )}
      </td>
      <td class="right">
        {p.canAct && FINISHED.has(r.status) && !r.rollback && (
          <button
            class="link"
            data-testid="rollback"
            disabled={p.busy}
            onClick={(e) => {
              e.stopPropagation();
              p.onRollBack(r.id);
            }}
          >
            {t('reflections.rollBack')}
          </button>
        )}
      </td>
    </tr>
  );
}

/** The row's keyboard way in (the row itself takes clicks only): the run's status as a link. */
function RunLink(p: { agent: string; run: RunSummary; onOpen: (run: string) => void }) {
  const { t } = useI18n();
  const statusLabel = useStatusLabel();
  const r = p.run;
  return (
    <a
      href={`/reflections?${new URLSearchParams({ agent: p.agent, run: r.id }).toString()}`}
      aria-label={t('reflections.runAria', { status: statusLabel(r.status), at: formatTime(r.queuedAt) })}
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        p.onOpen(r.id);
      }}
    >
      <StatusBadge tone={STATUS_TONE[r.status]} status={r.status} />
    </a>
  );
}
