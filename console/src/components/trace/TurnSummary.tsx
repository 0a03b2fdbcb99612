// A turn at a glance: status and outcome, who answered whom, when it started, how long the reply
// took, and when it closed (or is due).
import { useI18n } from '../../lib/i18n.js';
import { formatMs } from '../../lib/time.js';
import type { TracedTurn } from '../../lib/turnTraceQuery.js';
import { Badge, StatusBadge, Time, useRoleLabel } from '../ui.js';

export function TurnSummary(p: { turn: TracedTurn; names: Record<string, string> }) {
  const i18n = useI18n();
  const role = useRoleLabel();
  const { turn: t, names } = p;
  return (
    <div class="summary-strip">
      <div>
        <StatusBadge status={t.status} /> {t.outcome && <StatusBadge status={t.outcome} />}{' '}
        {t.kind !== 'dialogue' && <Badge tone="plain">{t.kind}</Badge>}
      </div>
      <div>
        {names[t.initiatorId] ?? role(t.initiatorRole)} → {names[t.responderId] ?? role(t.responderRole)}
      </div>
      <div>
        {i18n.t('turnTrace.started')} <Time at={t.startedAt} />
      </div>
      <div>{i18n.t('turnTrace.replyTime', { ms: formatMs(t.responseTimeMs) })}</div>
      <div>
        {t.closedAt ? (
          <>
            {i18n.t('turnTrace.closed')} <Time at={t.closedAt} />
          </>
        ) : (
          <>
            {i18n.t('turnTrace.dueBy')} <Time at={t.deadlineAt} />
          </>
        )}
      </div>
    </div>
  );
}
