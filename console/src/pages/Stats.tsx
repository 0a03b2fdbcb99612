// Operating statistics over a window: counts, reply latency percentiles, and tokens and latency
// over time (the API's stats.timeline buckets).
import { useState } from 'preact/hooks';
import { useQuery } from '../lib/hooks.js';
import { formatMs, formatNumber, formatShort } from '../lib/time.js';
import { ErrorBox, Loading, PageHeader, Panel, Select, Stat } from '../components/ui.js';
import { HBars, Lines, StackedBars } from '../components/charts.js';
import { useI18n } from '../lib/i18n.js';

interface Bucket {
  start: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  replies: number;
  p50Ms: number | null;
  p90Ms: number | null;
}
interface StatsData {
  since: string;
  until: string;
  dialogues: { created: number; active: number };
  sessions: number;
  turns: { total: number; pending: number; responded: number; unresponded: number };
  messages: { total: number; human: number; ai: number; system: number };
  replyLatency: {
    count: number;
    p50Ms: number | null;
    p90Ms: number | null;
    p99Ms: number | null;
    maxMs: number | null;
    sampled: boolean;
  };
  tokens: {
    calls: number;
    promptTokens: number;
    completionTokens: number;
    totalTokens: number;
    byTask: Array<{ task: string; calls: number; promptTokens: number; completionTokens: number; totalTokens: number }>;
  };
  timeline: Bucket[];
}

const QUERY = `query Stats($since: DateTime!, $until: DateTime!, $buckets: Int!) {
  stats(since: $since, until: $until) {
    since until dialogues { created active } sessions
    turns { total pending responded unresponded } messages { total human ai system }
    replyLatency { count p50Ms p90Ms p99Ms maxMs sampled }
    tokens { calls promptTokens completionTokens totalTokens byTask { task calls promptTokens completionTokens totalTokens } }
    timeline(buckets: $buckets) { start calls promptTokens completionTokens totalTokens replies p50Ms p90Ms }
  }
}`;

const WINDOWS = {
  '1h': { ms: 3_600_000, buckets: 12, label: 'Last hour' },
  '24h': { ms: 86_400_000, buckets: 24, label: 'Last 24 hours' },
  '7d': { ms: 7 * 86_400_000, buckets: 28, label: 'Last 7 days' },
  '30d': { ms: 30 * 86_400_000, buckets: 30, label: 'Last 30 days' },
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
  const q = useQuery<{ stats: StatsData }>(QUERY, windowOf(key), { pollMs: 30_000 });
  const s = q.data?.stats;
  const labels = (s?.timeline ?? []).map((b) => formatShort(b.start));
  return (
    <>
      <PageHeader
        title={t('stats.title')}
        sub={t('stats.sub')}
        actions={
          <Select
            label="Window"
            value={key}
            options={(Object.keys(WINDOWS) as WindowKey[]).map((k) => ({ value: k, label: WINDOWS[k].label }))}
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
              label="Active dialogues"
              value={formatNumber(s.dialogues.active)}
              hint={`${s.dialogues.created} new`}
            />
            <Stat label="Sessions started" value={formatNumber(s.sessions)} />
            <Stat
              label="Turns"
              value={formatNumber(s.turns.total)}
              hint={`${s.turns.responded} answered · ${s.turns.unresponded} unanswered · ${s.turns.pending} pending`}
            />
            <Stat
              label="Messages"
              value={formatNumber(s.messages.total)}
              hint={`${s.messages.human} human · ${s.messages.ai} AI · ${s.messages.system} system`}
            />
            <Stat label="Tokens" value={formatNumber(s.tokens.totalTokens)} hint={`${s.tokens.calls} model calls`} />
          </div>
          <div class="grid-2">
            <Panel
              title={`Reply latency (${s.replyLatency.count} replies${s.replyLatency.sampled ? ', sampled' : ''})`}
            >
              <HBars
                fmt={formatMs}
                items={[
                  { label: 'p50', value: s.replyLatency.p50Ms, color: '#22a06b' },
                  { label: 'p90', value: s.replyLatency.p90Ms, color: '#e2b203' },
                  { label: 'p99', value: s.replyLatency.p99Ms, color: '#f87168' },
                  { label: 'max', value: s.replyLatency.maxMs, color: '#8590a2' },
                ]}
              />
              <Lines
                title="Reply latency over time"
                labels={labels}
                fmt={formatMs}
                series={[
                  { label: 'p50', color: '#22a06b', values: s.timeline.map((b) => b.p50Ms) },
                  { label: 'p90', color: '#e2b203', values: s.timeline.map((b) => b.p90Ms) },
                ]}
              />
            </Panel>
            <Panel title="Tokens over time">
              <StackedBars
                title="Tokens over time"
                labels={labels}
                series={[
                  { label: 'prompt', color: '#6d5efc', values: s.timeline.map((b) => b.promptTokens) },
                  { label: 'completion', color: '#4bce97', values: s.timeline.map((b) => b.completionTokens) },
                ]}
              />
              <table class="table compact">
                <thead>
                  <tr>
                    <th scope="col">Task</th>
                    <th scope="col" class="num">
                      Calls
                    </th>
                    <th scope="col" class="num">
                      Prompt
                    </th>
                    <th scope="col" class="num">
                      Completion
                    </th>
                    <th scope="col" class="num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {s.tokens.byTask.map((t) => (
                    <tr>
                      <td class="mono">{t.task}</td>
                      <td class="num">{formatNumber(t.calls)}</td>
                      <td class="num">{formatNumber(t.promptTokens)}</td>
                      <td class="num">{formatNumber(t.completionTokens)}</td>
                      <td class="num">{formatNumber(t.totalTokens)}</td>
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
