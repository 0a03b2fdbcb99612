// The incidents feed: model errors and timeouts, delivery failures, degraded recall, rooms' budget
// stops and unanswered turns, each linked to its turn's trace (or its dialogue when it has no turn).
import { Link } from '../lib/router.js';
import { INCIDENT_LABELS, type IncidentView } from '../lib/health.js';
import { Badge, Empty, Time } from './ui.js';
import { useI18n } from '../lib/i18n.js';

/** Worth a look, not a failure: the gateway went on as designed. */
const WARN_ONLY = new Set<IncidentView['kind']>(['unanswered', 'degraded_recall', 'room_budget_stop', 'moderation']);

export function Incidents(p: { list: IncidentView[]; hours: number; readable: boolean }) {
  const { t } = useI18n();
  // Nothing read is not nothing wrong: say the record was unreadable rather than "no incidents".
  if (!p.readable) return <Empty>{t('incidents.unreadable')}</Empty>;
  if (p.list.length === 0) return <Empty>{t('incidents.none', { n: p.hours })}</Empty>;
  return (
    <table class="table" data-testid="incidents">
      <thead>
        <tr>
          <th>{t('th.when')}</th>
          <th>{t('th.kind')}</th>
          <th>{t('incidents.what')}</th>
          <th>{t('incidents.trace')}</th>
        </tr>
      </thead>
      <tbody>
        {p.list.map((i) => (
          <tr data-testid="incident" data-kind={i.kind}>
            <td>
              <Time at={i.at} />
            </td>
            <td>
              <Badge tone={WARN_ONLY.has(i.kind) ? 'warn' : 'bad'}>{t(INCIDENT_LABELS[i.kind])}</Badge>
            </td>
            <td class="incident-message">{i.message}</td>
            <td>
              {i.turnId ? (
                <Link data-testid="incident-trace" href={`/turns/${encodeURIComponent(i.turnId)}`}>
                  {t('common.toTurn')}
                </Link>
              ) : (
                <Link href={`/dialogues/${encodeURIComponent(i.dialogueId)}`}>{t('common.toDialogue')}</Link>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
