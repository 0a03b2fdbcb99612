// An agent's self-reflection: its mood and values now, its runs (status, trigger, budget used,
// rollbacks), and one run's report and introspection turns in order. Operators can start a run
// and roll a finished one back; the page follows reflectionEvents live.
import { useState } from 'preact/hooks';
import { gql } from '../lib/api.js';
import { graphql, type FragmentOf, type ResultOf } from '../lib/graphql.js';
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { navigate } from '../lib/router.js';
import { formatMs, formatNumber, formatTime } from '../lib/time.js';
import { useCan } from '../lib/viewerContext.js';
import { nodes } from '../lib/types.js';
import {
  Badge,
  Collapsible,
  Empty,
  ErrorBox,
  Json,
  LiveDot,
  Loading,
  PageHeader,
  Panel,
  ReadOnlyNote,
  Select,
  StatusBadge,
  Time,
  useStatusLabel,
} from '../components/ui.js';
import { useI18n, type I18n } from '../lib/i18n.js';
import { isMessageKey } from '../i18n/messages.js';

const MoodFields = graphql(`
  fragment MoodFields on AgentMood {
    label
    valence
    arousal
  }
`);
const RunFields = graphql(`
  fragment RunFields on Reflection {
    id
    status
    trigger
    triggeredBy
    queuedAt
    startedAt
    endedAt
    budget {
      calls
      usedTokens
      maxTokens
      usedMemories
      maxMemories
    }
    budgetHit {
      resource
      used
      limit
      wanted
      step
      when
    }
    failure {
      code
      message
      step
    }
    rollback {
      at
      by
      innerRestored
      removedIds
      restoredIds
    }
  }
`);
const AGENTS = graphql(`
  query ReflectionAgents {
    agents(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);
const STATE = graphql(
  `
    query ReflectionState($agent: ID!) {
      reflectionState(agentId: $agent) {
        mood {
          ...MoodFields
        }
        values {
          name
          weight
        }
        valuesSetBy
        lastSlot
        settings {
          enabled
          cron
        }
      }
    }
  `,
  [MoodFields],
);
const LIST = graphql(
  `
    query Reflections($agent: ID!) {
      reflections(agentId: $agent, first: 50) {
        edges {
          node {
            ...RunFields
          }
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  `,
  [RunFields],
);
const DETAIL = graphql(
  `
    query Reflection($id: ID!) {
      reflection(id: $id) {
        ...RunFields
        goal
        report
        memoryChanges {
          memoryId
          created
          seq
        }
        turns {
          id
          seq
          step
          purpose
          tool
          status
          durationMs
          tokens
          subject {
            displayName
          }
          generatedMemoryIds
          supersededMemoryIds
          generatedMemories {
            id
            text
          }
          moodShift {
            before {
              ...MoodFields
            }
            after {
              ...MoodFields
            }
          }
          valueImpact {
            changes {
              name
              before
              after
              limited
            }
          }
          notes
          error {
            code
            message
          }
          toolInput
          toolOutput
        }
      }
    }
  `,
  [RunFields, MoodFields],
);
const TRIGGER = graphql(`
  mutation Reflect($agent: ID!) {
    triggerReflection(agentId: $agent) {
      id
      status
    }
  }
`);
const ROLLBACK = graphql(`
  mutation RollBack($id: ID!) {
    rollbackReflection(reflectionId: $id) {
      id
      status
    }
  }
`);
const EVENTS = graphql(`
  subscription ReflectionEvents($agent: ID!) {
    reflectionEvents(agentId: $agent) {
      change
      reflection {
        id
        status
      }
    }
  }
`);

type Mood = FragmentOf<typeof MoodFields>;
type RunDetail = ResultOf<typeof DETAIL>['reflection'];
/** One introspection turn of a run. */
type TurnView = RunDetail['turns'][number];

const STATUS_TONE: Record<string, 'ok' | 'warn' | 'bad' | 'info'> = {
  queued: 'warn',
  running: 'info',
  completed: 'ok',
  failed: 'bad',
  budget_exceeded: 'warn',
  done: 'ok',
};
const FINISHED = new Set(['completed', 'failed', 'budget_exceeded']);

const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;
const moodText = (t: I18n['t'], m: Mood) =>
  t('reflections.moodText', { label: m.label, valence: signed(m.valence), arousal: m.arousal.toFixed(2) });
/** How a run was started (operator, schedule) as a word; an unknown trigger as stored. */
const triggerText = (t: I18n['t'], trigger: string) => {
  const key = `reflections.trigger.${trigger}`;
  return isMessageKey(key) ? t(key) : trigger;
};

export function Reflections(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const statusLabel = useStatusLabel();
  const canAct = useCan('operator');
  const people = useQuery(AGENTS);
  const agents = nodes(people.data?.agents);
  const agent = p.query.get('agent') ?? agents[0]?.id ?? '';
  const runId = p.query.get('run') ?? '';
  const state = useQuery(STATE, { agent }, { skip: !agent });
  const list = useQuery(LIST, { agent }, { skip: !agent });
  const detail = useQuery(DETAIL, { id: runId }, { skip: !runId });
  const [actionError, setActionError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const refresh = useDebounced(() => {
    void state.reload();
    void list.reload();
    if (runId) void detail.reload();
  }, 300);
  const live = useSubscription(EVENTS, { agent }, refresh, !!agent);

  const go = (agentId: string, run: string) => {
    const next = new URLSearchParams();
    if (agentId) next.set('agent', agentId);
    if (run) next.set('run', run);
    setActionError(undefined);
    navigate(`/reflections?${next.toString()}`, { replace: true });
  };
  const act = async (fn: () => Promise<void>) => {
    setActionError(undefined);
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
      refresh();
    }
  };
  const reflectNow = () =>
    act(async () => {
      const r = await gql(TRIGGER, { agent });
      go(agent, r.triggerReflection.id);
    });
  const rollBack = (id: string) => {
    if (!confirm(t('reflections.rollbackConfirm'))) return;
    void act(async () => {
      await gql(ROLLBACK, { id });
    });
  };

  const runs = nodes(list.data?.reflections);
  const st = state.data?.reflectionState;
  const run = runId && detail.data?.reflection.id === runId ? detail.data.reflection : undefined;

  return (
    <>
      <PageHeader
        title={t('reflections.title')}
        sub={t('reflections.sub')}
        actions={
          <>
            {agent && <LiveDot state={live} />}
            <Select
              label={t('th.agent')}
              value={agent}
              options={agents.map((a) => ({ value: a.id, label: a.name }))}
              onChange={(v) => go(v, '')}
            />
            {canAct && (
              <button data-testid="reflect-now" disabled={!agent || busy} onClick={() => void reflectNow()}>
                {t('reflections.reflectNow')}
              </button>
            )}
          </>
        }
      />
      {!canAct && <ReadOnlyNote needs="operator" />}
      <ErrorBox error={people.error ?? state.error ?? list.error} />
      <ErrorBox error={actionError} />
      {!agent ? (
        people.loading ? (
          <Loading what="agents" />
        ) : (
          <Empty>{t('common.noAgents')}</Empty>
        )
      ) : (
        <>
          <Panel title={t('reflections.moodValues')}>
            {!st ? (
              <Loading what="state" />
            ) : (
              <div data-testid="reflection-state">
                <div class="kv-row">
                  <span>
                    {t('reflections.mood')} <strong data-testid="mood">{st.mood.label}</strong>
                  </span>
                  <span>
                    {t('reflections.valence')} <strong>{signed(st.mood.valence)}</strong>
                  </span>
                  <span>
                    {t('reflections.arousal')} <strong>{st.mood.arousal.toFixed(2)}</strong>
                  </span>
                  <span>
                    {t('reflections.schedule')}{' '}
                    <strong>{st.settings.enabled ? st.settings.cron : t('status.off')}</strong>
                  </span>
                  <span>
                    {t('reflections.setBy')}{' '}
                    <strong class="mono small">{st.valuesSetBy ?? t('reflections.defaults')}</strong>
                  </span>
                </div>
                <div class="hbars values" data-testid="values">
                  {st.values.map((v) => (
                    <div class="hbar" data-testid="value">
                      <span>{v.name}</span>
                      <div class="hbar-track">
                        <i style={{ width: `${Math.round(v.weight * 100)}%` }} />
                      </div>
                      <span class="hbar-value">{v.weight.toFixed(2)}</span>
                    </div>
                  ))}
                </div>
              </div>
            )}
          </Panel>
          <Panel
            title={`${t('reflections.runs')}${runs.length ? ` (${runs.length}${list.data?.reflections.pageInfo?.hasNextPage ? '+' : ''})` : ''}`}
          >
            {!list.data && list.loading ? (
              <Loading what="runs" />
            ) : runs.length === 0 ? (
              <Empty>{t('reflections.none')}</Empty>
            ) : (
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
                  {runs.map((r) => (
                    <tr
                      class={`clickable ${r.id === runId ? 'selected' : ''}`}
                      data-testid="reflection-row"
                      onClick={() => go(agent, r.id)}
                    >
                      <td data-label={t('th.status')}>
                        {/* The row's keyboard way in (the row itself takes clicks only). */}
                        <a
                          href={`/reflections?${new URLSearchParams({ agent, run: r.id }).toString()}`}
                          aria-label={t('reflections.runAria', {
                            status: statusLabel(r.status),
                            at: formatTime(r.queuedAt),
                          })}
                          onClick={(e) => {
                            e.preventDefault();
                            e.stopPropagation();
                            go(agent, r.id);
                          }}
                        >
                          <StatusBadge tone={STATUS_TONE[r.status]} status={r.status} />
                        </a>
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
                        {canAct && FINISHED.has(r.status) && !r.rollback && (
                          <button
                            class="link"
                            data-testid="rollback"
                            disabled={busy}
                            onClick={(e) => {
                              e.stopPropagation();
                              rollBack(r.id);
                            }}
                          >
                            {t('reflections.rollBack')}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
          {runId && (
            <Panel
              title={t('reflections.run')}
              actions={
                <button class="link" onClick={() => go(agent, '')}>
                  {t('reflections.close')}
                </button>
              }
            >
              <ErrorBox error={detail.error} />
              {!run ? detail.loading ? <Loading what="run" /> : null : <RunDetailView run={run} />}
            </Panel>
          )}
        </>
      )}
    </>
  );
}

function RunDetailView(p: { run: RunDetail }) {
  const r = p.run;
  const { t } = useI18n();
  return (
    <div class="reflection-detail" data-testid="reflection-detail">
      <div class="kv-row">
        <span>
          <StatusBadge tone={STATUS_TONE[r.status]} status={r.status} />
        </span>
        <span>
          {t('reflections.trigger')} <strong>{triggerText(t, r.trigger)}</strong>
        </span>
        <span>
          {t('reflections.started')} <Time at={r.startedAt} />
        </span>
        <span>
          {t('reflections.ended')} <Time at={r.endedAt} />
        </span>
        <span>
          {t('reflections.modelCalls')} <strong>{r.budget.calls}</strong>
        </span>
        <span>
          {t('reflections.memoriesChanged')} <strong>{r.memoryChanges.length}</strong>
        </span>
      </div>
      <div class="muted small">{t('reflections.goal', { goal: r.goal })}</div>
      {r.failure && (
        <div class="error-box" role="alert">
          <strong>{r.failure.code}</strong>
          {r.failure.step && t('reflections.atStep', { step: r.failure.step })}: {r.failure.message}
        </div>
      )}
      {r.budgetHit && (
        <div class="notice">
          {t('reflections.budgetHit', {
            resource: r.budgetHit.resource,
            step: r.budgetHit.step,
            when: r.budgetHit.when,
            used: r.budgetHit.used,
            limit: r.budgetHit.limit,
            wanted: r.budgetHit.wanted,
          })}
        </div>
      )}
      {r.rollback && (
        <div class="note">
          {t('reflections.rolledBackBy', { by: r.rollback.by })} <Time at={r.rollback.at} />:{' '}
          {t('reflections.rollbackCounts', {
            removed: r.rollback.removedIds.length,
            restored: r.rollback.restoredIds.length,
          })}
          {r.rollback.innerRestored ? t('reflections.rollbackInner') : ''}.
        </div>
      )}
      <h3>{t('reflections.report')}</h3>
      {r.report ? (
        <div class="prewrap report" data-testid="reflection-report">
          {r.report}
        </div>
      ) : (
        <Empty>{t(FINISHED.has(r.status) ? 'reflections.noReport' : 'reflections.noReportYet')}</Empty>
      )}
      <h3>{t('reflections.turns')}</h3>
      {r.turns.length === 0 ? (
        <Empty>{t(FINISHED.has(r.status) ? 'reflections.noTurns' : 'reflections.noTurnsYet')}</Empty>
      ) : (
        <div class="cards" data-testid="introspection-turns">
          {[...r.turns]
            .sort((a, b) => a.seq - b.seq)
            .map((turn) => (
              <IntrospectionCard t={turn} />
            ))}
        </div>
      )}
    </div>
  );
}

function IntrospectionCard(p: { t: TurnView }) {
  const t = p.t;
  const { t: tr } = useI18n();
  return (
    <div class="card" data-testid="introspection-turn">
      <div class="card-head">
        <span class="muted">#{t.seq + 1}</span>
        <strong>{t.purpose}</strong>
        <span class="chip mono">{t.tool}</span>
        <StatusBadge tone={STATUS_TONE[t.status]} status={t.status} />
        {t.subject && <span class="muted small">{tr('common.about', { name: t.subject.displayName })}</span>}
      </div>
      <div class="metrics">
        <span>
          {tr('reflections.step')} <strong>{t.step}</strong>
        </span>
        <span>
          {tr('reflections.duration')} <strong>{formatMs(t.durationMs)}</strong>
        </span>
        <span>
          {tr('reflections.tokens')} <strong>{formatNumber(t.tokens)}</strong>
        </span>
        <span>
          {tr('reflections.generated')} <strong>{t.generatedMemoryIds.length}</strong>
        </span>
        {t.supersededMemoryIds.length > 0 && (
          <span>
            {tr('reflections.superseded')} <strong>{t.supersededMemoryIds.length}</strong>
          </span>
        )}
      </div>
      {t.error && (
        <div class="error-box">
          <strong>{t.error.code}</strong>: {t.error.message}
        </div>
      )}
      {t.generatedMemories.length > 0 && (
        <ul class="small">
          {t.generatedMemories.map((m) => (
            <li>{m.text}</li>
          ))}
        </ul>
      )}
      {t.moodShift && (
        <div class="small">
          {tr('reflections.moodShift')} {moodText(tr, t.moodShift.before)} →{' '}
          <strong>{moodText(tr, t.moodShift.after)}</strong>
        </div>
      )}
      {t.valueImpact && t.valueImpact.changes.length > 0 && (
        <div class="small">
          {tr('reflections.values')}{' '}
          {t.valueImpact.changes.map((c, i) => (
            <span>
              {i > 0 && ', '}
              {c.name} {c.before === null ? tr('reflections.new') : c.before.toFixed(2)} →{' '}
              <strong>{c.after.toFixed(2)}</strong>
              {c.limited && <span class="muted"> {tr('reflections.limited')}</span>}
            </span>
          ))}
        </div>
      )}
      {t.notes.length > 0 && <div class="muted small">{tr('reflections.notes', { notes: t.notes.join(' · ') })}</div>}
      <Collapsible summary={tr('reflections.toolInput')}>
        <Json value={t.toolInput ?? null} />
      </Collapsible>
      <Collapsible summary={tr('reflections.toolOutput')}>
        <Json value={t.toolOutput ?? null} />
      </Collapsible>
    </div>
  );
}
