// Warnings, one row per dialogue and category (counted on repeats), most recently raised first.
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { Link } from '../lib/router.js';
import { nodes } from '../lib/types.js';
import { HEALTH_POLL_MS, HEALTH_QUERY, problemsOf, warningsOf } from '../lib/health.js';
import { Incidents } from '../components/Incidents.js';
import { Badge, Empty, ErrorBox, Json, Loading, PageHeader, Panel, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';

const QUERY = graphql(`
  query Warnings {
    warnings(first: 100) {
      edges {
        node {
          id
          category
          count
          data
          firstAt
          lastAt
          firstTurnId
          lastTurnId
          dialogueId
          dialogue {
            title
          }
        }
      }
    }
  }
`);

export function Warnings() {
  const { t } = useI18n();
  const q = useQuery(QUERY, {}, { pollMs: 15_000 });
  const list = nodes(q.data?.warnings);
  // The home page's signals too: a failing model or unanswered turns need attention even when
  // no dialogue raised a warning.
  const hq = useQuery(HEALTH_QUERY, {}, { pollMs: HEALTH_POLL_MS });
  const h = hq.data?.health;
  const problems = h ? [...problemsOf(h, t), ...warningsOf(h, t)] : [];
  const calm = h !== undefined && problems.length === 0 && h.incidents.length === 0;
  return (
    <>
      <PageHeader title={t('warnings.title')} sub={t('warnings.sub')} />
      <ErrorBox error={q.error} />
      {h && !calm && (
        <Panel title={t('warnings.attention')}>
          {problems.length > 0 && (
            <ul class="health-problems" data-testid="warning-problems">
              {problems.map((s) => (
                <li>{s}</li>
              ))}
            </ul>
          )}
          <Incidents list={h.incidents} hours={h.incidentWindowHours} readable={h.recordReadable} />
        </Panel>
      )}
      <Panel>
        {!q.data ? (
          <Loading what="warnings" />
        ) : list.length === 0 ? (
          <Empty>{calm ? t('warnings.calm') : h ? t('warnings.signals') : t('warnings.none')}</Empty>
        ) : (
          <table class="table stack" data-testid="warnings">
            <thead>
              <tr>
                <th scope="col">{t('th.kind')}</th>
                <th scope="col">{t('th.dialogue')}</th>
                <th scope="col" class="num">
                  {t('th.times')}
                </th>
                <th scope="col">{t('th.first')}</th>
                <th scope="col">{t('th.last')}</th>
                <th scope="col">{t('th.details')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((w) => (
                <tr>
                  <td data-label={t('th.kind')}>
                    <Badge tone="warn">{w.category}</Badge>
                  </td>
                  <td data-label={t('th.dialogue')}>
                    <Link href={`/dialogues/${encodeURIComponent(w.dialogueId)}`}>
                      {w.dialogue?.title ?? w.dialogueId}
                    </Link>
                  </td>
                  <td data-label={t('th.times')} class="num">
                    {w.count}
                  </td>
                  <td data-label={t('th.first')}>
                    <Time at={w.firstAt} />
                    {w.firstTurnId && (
                      <div>
                        <Link class="small" href={`/turns/${encodeURIComponent(w.firstTurnId)}`}>
                          {t('common.toTurn')}
                        </Link>
                      </div>
                    )}
                  </td>
                  <td data-label={t('th.last')}>
                    <Time at={w.lastAt} />
                    {w.lastTurnId && w.lastTurnId !== w.firstTurnId && (
                      <div>
                        <Link class="small" href={`/turns/${encodeURIComponent(w.lastTurnId)}`}>
                          {t('common.toTurn')}
                        </Link>
                      </div>
                    )}
                  </td>
                  <td data-label={t('th.details')} class="details">
                    <Json value={w.data} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
    </>
  );
}
