// One turn's trace (seed 000's DialogueTurn): what came in, the context that was built (every
// part with its tokens, the full prompt, the recalled memories), each model call, each tool
// call, the deliveries and anything else recorded — live while the turn is being answered.
import { useState } from 'preact/hooks';
import { graphql } from '../lib/graphql.js';
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { Link, navigate } from '../lib/router.js';
import { contextBuild } from '../lib/trace.js';
import { formatMs, formatTime } from '../lib/time.js';
import { EventFields, MessageFields, nodes } from '../lib/types.js';
import {
  Badge,
  Empty,
  ErrorBox,
  LiveDot,
  Loading,
  PageHeader,
  Panel,
  StatusBadge,
  Time,
  useRoleLabel,
  useStatusLabel,
} from '../components/ui.js';
import { MessageBubble } from '../components/MessageBubble.js';
import { PromptParts } from '../components/trace/PromptParts.js';
import { RecalledMemories } from '../components/trace/RecalledMemories.js';
import { KnowledgePassages } from '../components/trace/KnowledgePassages.js';
import { Deliveries, LlmCalls, OtherEvents, ToolCalls } from '../components/trace/Calls.js';
import { Timeline } from '../components/trace/Timeline.js';
import { useI18n } from '../lib/i18n.js';

const TRACE = graphql(
  `
    query Trace($id: ID!) {
      turnTrace(turnId: $id) {
        turn {
          id
          kind
          status
          outcome
          startedAt
          closedAt
          deadlineAt
          responseTimeMs
          initiatorRole
          initiatorId
          responderRole
          responderId
          dialogue {
            id
            title
            agents {
              id
              name
            }
            humans {
              id
              displayName
            }
          }
          session {
            id
            turns(last: 30) {
              edges {
                node {
                  id
                  startedAt
                  status
                }
              }
            }
          }
        }
        input {
          ...MessageFields
        }
        response {
          ...MessageFields
        }
        systemActions {
          ...EventFields
        }
        llmCalls {
          id
        }
        toolCalls {
          id
        }
        memoryLinks
      }
    }
  `,
  [MessageFields, EventFields],
);
const TURN_EVENTS = graphql(`
  subscription TurnEvents($id: ID!) {
    turnEvents(turnId: $id) {
      id
    }
  }
`);

export function TurnTracePage(p: { id: string }) {
  const i18n = useI18n();
  const role = useRoleLabel();
  const statusLabel = useStatusLabel();
  const q = useQuery(TRACE, { id: p.id });
  const refresh = useDebounced(() => void q.reload(), 300);
  const live = useSubscription(TURN_EVENTS, { id: p.id }, refresh, q.data?.turnTrace.turn.status === 'pending');
  const [other, setOther] = useState('');
  if (q.error) return <ErrorBox error={q.error} title={i18n.t('turnTrace.cannotShow')} />;
  if (!q.data) return <Loading what="the trace" />;
  const tr = q.data.turnTrace;
  const t = tr.turn;
  const names: Record<string, string> = {};
  for (const a of t.dialogue.agents) names[a.id] = a.name;
  for (const h of t.dialogue.humans) names[h.id] = h.displayName;

  const events = tr.systemActions;
  const llmIds = new Set(tr.llmCalls.map((e) => e.id));
  const toolIds = new Set(tr.toolCalls.map((e) => e.id));
  const contexts = events.filter((e) => e.kind === 'context_built');
  const deliveries = events.filter((e) => e.kind === 'delivery');
  const rest = events.filter(
    (e) => !llmIds.has(e.id) && !toolIds.has(e.id) && e.kind !== 'context_built' && e.kind !== 'delivery',
  );
  const siblings = nodes(t.session.turns).filter((x) => x.id !== t.id);
  const previous = [...siblings].reverse().find((x) => x.startedAt < t.startedAt);
  const diffWith = other || previous?.id || siblings[0]?.id || '';

  return (
    <>
      <PageHeader
        title={i18n.t('turnTrace.title')}
        sub={
          <>
            <Link href={`/dialogues/${encodeURIComponent(t.dialogue.id)}?session=${encodeURIComponent(t.session.id)}`}>
              ← {t.dialogue.title ?? i18n.t('turnTrace.dialogue')}
            </Link>{' '}
            · <span class="mono">{t.id}</span>
          </>
        }
        actions={
          <>
            {t.status === 'pending' && <LiveDot state={live} />}
            {siblings.length > 0 && (
              <span class="inline-field">
                <select value={diffWith} onChange={(e) => setOther(e.currentTarget.value)}>
                  {siblings.map((s) => (
                    <option value={s.id}>
                      {i18n.t('turnTrace.turnOf', { at: formatTime(s.startedAt), status: statusLabel(s.status) })}
                    </option>
                  ))}
                </select>
                <button
                  data-testid="diff-button"
                  onClick={() => navigate(`/diff?a=${encodeURIComponent(diffWith)}&b=${encodeURIComponent(t.id)}`)}
                >
                  {i18n.t('turnTrace.diff')}
                </button>
              </span>
            )}
          </>
        }
      />
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

      <Panel title={i18n.t('trace.timeline.title')}>
        <Timeline startedAt={t.startedAt} closedAt={t.closedAt} events={events} llmIds={llmIds} toolIds={toolIds} />
      </Panel>

      <Panel title={i18n.t('turnTrace.conversation')}>
        <div class="turn-messages">
          {[...tr.input, ...tr.response].map((m) => (
            <MessageBubble m={m} names={names} />
          ))}
        </div>
      </Panel>

      {contexts.length === 0 ? (
        <Panel title={i18n.t('turnTrace.context')}>
          <Empty>{i18n.t('turnTrace.noContext')}</Empty>
        </Panel>
      ) : (
        contexts.map((e, i) => {
          const ctx = contextBuild(e);
          return (
            <>
              <Panel
                title={
                  <>
                    {i18n.t('turnTrace.context')}
                    {contexts.length > 1 ? ` #${i + 1}` : ''}{' '}
                    <span class="muted small">
                      <Time at={e.at} />
                    </span>
                  </>
                }
              >
                <PromptParts ctx={ctx} />
              </Panel>
              {ctx.recall && (
                <Panel title={i18n.t('turnTrace.recalled')}>
                  <RecalledMemories recall={ctx.recall} />
                </Panel>
              )}
              {ctx.knowledge && (
                <Panel title={i18n.t('turnTrace.knowledge')}>
                  <KnowledgePassages knowledge={ctx.knowledge} />
                </Panel>
              )}
            </>
          );
        })
      )}

      <Panel title={i18n.t('turnTrace.llmCalls', { n: tr.llmCalls.length })}>
        {tr.llmCalls.length ? (
          <LlmCalls events={events.filter((e) => llmIds.has(e.id))} />
        ) : (
          <Empty>{i18n.t('turnTrace.noLlm')}</Empty>
        )}
      </Panel>
      <Panel title={i18n.t('turnTrace.toolCalls', { n: tr.toolCalls.length })}>
        {tr.toolCalls.length ? (
          <ToolCalls events={events.filter((e) => toolIds.has(e.id))} />
        ) : (
          <Empty>{i18n.t('turnTrace.noTool')}</Empty>
        )}
      </Panel>
      <Panel title={i18n.t('turnTrace.deliveries', { n: deliveries.length })}>
        {deliveries.length ? <Deliveries events={deliveries} /> : <Empty>{i18n.t('turnTrace.noDelivery')}</Empty>}
      </Panel>
      {rest.length > 0 && (
        <Panel title={i18n.t('turnTrace.otherEvents')}>
          <OtherEvents events={rest} />
        </Panel>
      )}
      {tr.memoryLinks.length > 0 && (
        <Panel title={i18n.t('turnTrace.memoryLinks')}>
          <div class="small muted">{i18n.t('turnTrace.memoryLinksHelp')}</div>
          <div>
            {tr.memoryLinks.map((id) => (
              <span class="chip mono">{id}</span>
            ))}
          </div>
        </Panel>
      )}
    </>
  );
}
