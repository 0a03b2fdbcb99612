// Operating statistics over a window: counts, reply latency percentiles, and tokens and latency
// over time (the API's stats.timeline buckets), and (for operators) the days' spend per person,
// chat and agent.
import { formatShort } from '../lib/time.js';
import { ErrorBox, Loading, PageHeader, Select } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { WINDOWS, type WindowKey } from '../lib/statsWindow.js';
import { useStats } from '../components/stats/useStats.js';
import { StatCards } from '../components/stats/StatCards.js';
import { LatencyPanel, TokensPanel } from '../components/stats/StatsPanels.js';
import { SpendPanel } from '../components/stats/SpendPanel.js';
import { useCan } from '../lib/viewerContext.js';

export function StatsPage() {
  const { t } = useI18n();
  const { key, setKey, q } = useStats();
  // The spend is an operator's to read (the API says so too).
  const canSeeSpend = useCan('operator');
  const s = q.data?.stats;
  const labels = (s?.timeline ?? []).map((b) => formatShort(b.start));
  return (
    <>
      <PageHeader
        title={t('stats.title')}
        sub={t('stats.sub')}
        actions={
          <Select
            label={t('stats.window')}
            value={key}
            options={(Object.keys(WINDOWS) as WindowKey[]).map((k) => ({ value: k, label: t(WINDOWS[k].label) }))}
            onChange={setKey}
          />
        }
      />
      <ErrorBox error={q.error} />
      {!s ? (
        <Loading what="stats" />
      ) : (
        <>
          <StatCards s={s} />
          <div class="grid-2">
            <LatencyPanel s={s} labels={labels} />
            <TokensPanel s={s} labels={labels} />
          </div>
        </>
      )}
      {canSeeSpend && <SpendPanel />}
    </>
  );
}
