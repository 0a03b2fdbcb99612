// The incidents feed: model errors and timeouts, delivery failures and unanswered turns, each
// linked to its turn's trace (or its dialogue when the incident has no turn).
import { Link } from '../lib/router.js';
import { INCIDENT_LABELS, type IncidentView } from '../lib/health.js';
import { Badge, Empty, Time } from './ui.js';
import { useI18n } from '../lib/i18n.js';

export function Incidents(p: { list: IncidentView[]; hours: number }) {
  const { t } = useI18n();
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
              <Badge tone={i.kind === 'unanswered' ? 'warn' : 'bad'}>{t(INCIDENT_LABELS[i.kind])}</Badge>
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
