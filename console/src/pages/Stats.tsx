// Operating statistics over a window: counts, reply latency percentiles, and tokens and latency
// over time (the API's stats.timeline buckets).
import { useState } from 'preact/hooks';
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { formatMs, formatNumber, formatShort } from '../lib/time.js';
import { ErrorBox, Loading, PageHeader, Panel, Select, Stat } from '../components/ui.js';
import { HBars, Lines, StackedBars } from '../components/charts.js';
import { useI18n } from '../lib/i18n.js';

const QUERY = graphql(`
  query Stats($since: DateTime!, $until: DateTime!, $buckets: Int!) {
    stats(since: $since, until: $until) {
      since
      until
      dialogues {
        created
        active
      }
      sessions
      turns {
        total
        pending
        responded
        unresponded
      }
      messages {
        total
        human
        ai
        system
      }
      replyLatency {
        count
        p50Ms
        p90Ms
        p99Ms
        maxMs
        sampled
      }
      tokens {
        calls
        promptTokens
        completionTokens
        totalTokens
        byTask {
          task
          calls
          promptTokens
          completionTokens
          totalTokens
        }
      }
      timeline(buckets: $buckets) {
        start
        calls
        promptTokens
        completionTokens
        totalTokens
        replies
        p50Ms
        p90Ms
      }
    }
  }
`);

const WINDOWS = {
  '1h': { ms: 3_600_000, buckets: 12, label: 'stats.lastHour' },
  '24h': { ms: 86_400_000, buckets: 24, label: 'stats.last24h' },
  '7d': { ms: 7 * 86_400_000, buckets: 28, label: 'stats.last7d' },
  '30d': { ms: 30 * 86_400_000, buckets: 30, label: 'stats.last30d' },
} as const;
type WindowKey = keyof typeof WINDOWS;

/** The window's end rounded up to the minute, so polling asks the same question within a minute. */
function windowOf(key: WindowKey): { since: string; until: string; buckets: number } {
  const until = Math.ceil(Date.now() / 60_000) * 60_000;
  return {
    since: new Date(until - WINDOWS[key].ms).toISOString(),
    until: new Date(until).toISOString(),
    buckets: WINDOWS[key].buckets,
  };
}

export function StatsPage() {
  const { t } = useI18n();
  const [key, setKey] = useState<WindowKey>('24h');
  const q = useQuery(QUERY, windowOf(key), { pollMs: 30_000 });
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
          <div class="stats-row" data-testid="stats-cards">
            <Stat
              label={t('stats.activeDialogues')}
              value={formatNumber(s.dialogues.active)}
              hint={t('stats.new', { n: s.dialogues.created })}
            />
            <Stat label={t('stats.sessions')} value={formatNumber(s.sessions)} />
            <Stat
              label={t('stats.turns')}
              value={formatNumber(s.turns.total)}
              hint={t('stats.turnsHint', {
                responded: s.turns.responded,
                unresponded: s.turns.unresponded,
                pending: s.turns.pending,
              })}
            />
            <Stat
              label={t('th.messages')}
              value={formatNumber(s.messages.total)}
              hint={t('stats.messagesHint', { human: s.messages.human, ai: s.messages.ai, system: s.messages.system })}
            />
            <Stat
              label={t('stats.tokens')}
              value={formatNumber(s.tokens.totalTokens)}
              hint={t('stats.modelCalls', { n: s.tokens.calls })}
            />
          </div>
          <div class="grid-2">
            <Panel
              title={t(s.replyLatency.sampled ? 'stats.latencySampled' : 'stats.latency', { n: s.replyLatency.count })}
            >
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
                labels={labels}
                fmt={formatMs}
                series={[
                  { label: 'p50', color: '#22a06b', values: s.timeline.map((b) => b.p50Ms) },
                  { label: 'p90', color: '#e2b203', values: s.timeline.map((b) => b.p90Ms) },
                ]}
              />
            </Panel>
            <Panel title={t('stats.tokensOverTime')}>
              <StackedBars
                title={t('stats.tokensOverTime')}
                labels={labels}
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
          </div>
        </>
      )}
    </>
  );
}
