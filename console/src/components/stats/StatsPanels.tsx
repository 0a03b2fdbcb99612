// Why components: reply latency and token use are two panels, each with its own charts.
import { formatMs, formatNumber } from '../../lib/time.js';
import { useI18n } from '../../lib/i18n.js';
import { HBars, Lines, StackedBars } from '../charts.js';
import { Panel } from '../ui.js';
import type { StatsView } from './useStats.js';

/** Reply latency percentiles, and p50/p90 over the window. */
export function LatencyPanel(p: { s: StatsView; labels: string[] }) {
  const { t } = useI18n();
  const { s } = p;
  return (
    <Panel title={t(s.replyLatency.sampled ? 'stats.latencySampled' : 'stats.latency', { n: s.replyLatency.count })}>
      <HBars
        fmt={formatMs}
        items={[
          { label: 'p50', value: s.replyLatency.p50Ms, color: '#22a06b' },
          { label: 'p90', value: s.replyLatency.p90Ms, color: '#e2b203' },
          { label: 'p99', value: s.replyLatency.p99Ms, color: '#f87168' },
          { label: t('stats.max'), value: s.replyLatency.maxMs, color: '#8590a2' },
        ]}
      />
      <Lines
        title={t('stats.latencyOverTime')}
        labels={p.labels}
        fmt={formatMs}
        series={[
          { label: 'p50', color: '#22a06b', values: s.timeline.map((b) => b.p50Ms) },
          { label: 'p90', color: '#e2b203', values: s.timeline.map((b) => b.p90Ms) },
        ]}
      />
    </Panel>
  );
}

/** Prompt and completion tokens over the window, and the totals by task. */
export function TokensPanel(p: { s: StatsView; labels: string[] }) {
  const { t } = useI18n();
  const { s } = p;
  return (
    <Panel title={t('stats.tokensOverTime')}>
      <StackedBars
        title={t('stats.tokensOverTime')}
        labels={p.labels}
        series={[
          { label: t('stats.prompt'), color: '#6d5efc', values: s.timeline.map((b) => b.promptTokens) },
          { label: t('stats.completion'), color: '#4bce97', values: s.timeline.map((b) => b.completionTokens) },
        ]}
      />
      <table class="table compact">
        <thead>
          <tr>
            <th scope="col">{t('th.task')}</th>
            <th scope="col" class="num">
              {t('th.calls')}
            </th>
            <th scope="col" class="num">
              {t('th.prompt')}
            </th>
            <th scope="col" class="num">
              {t('th.completion')}
            </th>
            <th scope="col" class="num">
              {t('th.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {s.tokens.byTask.map((b) => (
            <tr>
              <td class="mono">{b.task}</td>
              <td class="num">{formatNumber(b.calls)}</td>
              <td class="num">{formatNumber(b.promptTokens)}</td>
              <td class="num">{formatNumber(b.completionTokens)}</td>
              <td class="num">{formatNumber(b.totalTokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
