// The Stats page's spend (SPEC §14): a span's model tokens and cost for the deployment and per
// person, chat and agent, as the budgets count them (days in the deployment's time zone). Names
// come in the same request (lib/accessQueries.ts SPEND); cost shows only where there is one.
import { useState } from 'preact/hooks';
import { SPEND } from '../../lib/accessQueries.js';
import { formatCost } from '../../lib/cost.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { Link } from '../../lib/router.js';
import { namesOf, spanOf, totalsOf, dayIn, type Period, type Scope, type SpendTotal } from '../../lib/spendView.js';
import { formatNumber } from '../../lib/time.js';
import { useViewer } from '../../lib/viewerContext.js';
import { Empty, ErrorBox, Loading, Panel, Select, Stat } from '../ui.js';

type Listed = Exclude<Scope, 'DEPLOYMENT'>;
const SCOPES: Listed[] = ['PERSON', 'CHAT', 'AGENT'];
/** Rows shown per scope; the rest are counted. */
const TOP = 10;

export function SpendPanel() {
  const { t, locale } = useI18n();
  const zone = useViewer().timezone;
  const today = dayIn(new Date(), zone);
  const [period, setPeriod] = useState<Period>('today');
  const [picked, setPicked] = useState(today);
  const span = spanOf(period, today, picked);
  const q = useQuery(SPEND, span, { pollMs: 30_000 });
  const rows = q.data?.spend ?? [];
  const total = totalsOf(rows, 'DEPLOYMENT')[0];
  const name = namesOf(q.data);
  return (
    <Panel
      title={t('spend.title')}
      actions={
        <div class="row" data-testid="spend-period">
          <Select
            label={t('spend.period')}
            value={period}
            testId="spend-period-select"
            options={[
              { value: 'today', label: t('spend.today') },
              { value: '7d', label: t('spend.last7') },
              { value: 'day', label: t('spend.day') },
            ]}
            onChange={setPeriod}
          />
          {period === 'day' && (
            <label class="inline-field">
              <span>{t('spend.pickDay')}</span>
              <input type="date" value={picked} max={today} onChange={(e) => setPicked(e.currentTarget.value)} />
            </label>
          )}
        </div>
      }
    >
      <div class="muted small">{t('spend.sub', { zone })}</div>
      <ErrorBox error={q.error} />
      {!q.data ? (
        !q.error && <Loading what="spend" />
      ) : !total ? (
        <Empty>{t('spend.empty')}</Empty>
      ) : (
        <div data-testid="spend">
          <div class="stats-row" data-testid="spend-total">
            <Stat label={t('spend.deployment')} value={formatNumber(total.tokens)} hint={t('spend.tokens')} />
            <Stat label={t('spend.callsLabel')} value={formatNumber(total.calls)} />
            {total.cost > 0 && <Stat label={t('spend.costCol')} value={formatCost(total.cost, locale)} />}
          </div>
          <div class="grid-2">
            {SCOPES.map((s) => (
              <SpendTable scope={s} totals={totalsOf(rows, s)} name={name} />
            ))}
          </div>
        </div>
      )}
    </Panel>
  );
}

function SpendTable(p: { scope: Listed; totals: SpendTotal[]; name: ReturnType<typeof namesOf> }) {
  const { t, locale } = useI18n();
  const priced = p.totals.some((x) => x.cost > 0);
  return (
    <div data-testid={`spend-${p.scope.toLowerCase()}`}>
      <h3>{t(`spend.${p.scope}`)}</h3>
      {p.totals.length === 0 ? (
        <div class="muted small">{t('common.noneYet')}</div>
      ) : (
        <table class="table stack compact">
          <thead>
            <tr>
              <th scope="col">{t('spend.who')}</th>
              <th scope="col" class="num">
                {t('spend.tokens')}
              </th>
              <th scope="col" class="num">
                {t('spend.inOut')}
              </th>
              {priced && (
                <th scope="col" class="num">
                  {t('spend.costCol')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {p.totals.slice(0, TOP).map((x) => {
              const s = p.name(p.scope, x.subjectId);
              return (
                <tr data-testid="spend-row" data-subject={x.subjectId}>
                  <td data-label={t('spend.who')}>
                    <Link href={s.href}>{s.name ?? <span class="mono">{x.subjectId}</span>}</Link>
                  </td>
                  <td class="num" data-label={t('spend.tokens')}>
                    {formatNumber(x.tokens)}
                  </td>
                  <td class="num muted" data-label={t('spend.inOut')}>
                    {formatNumber(x.inputTokens)} / {formatNumber(x.outputTokens)}
                  </td>
                  {priced && (
                    <td class="num" data-label={t('spend.costCol')}>
                      {x.cost > 0 ? formatCost(x.cost, locale) : ''}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {p.totals.length > TOP && <div class="muted small">{t('spend.more', { n: p.totals.length - TOP })}</div>}
    </div>
  );
}
