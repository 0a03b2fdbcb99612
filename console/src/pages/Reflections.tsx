// An agent's self-reflection: its mood and values now, its runs (status, trigger, budget used,
// rollbacks), and one run's report and introspection turns in order. Operators can start a run
// and roll a finished one back; the page follows reflectionEvents live.
import { AGENTS } from '../lib/agentList.js';
import { useQuery } from '../lib/hooks.js';
import { useI18n } from '../lib/i18n.js';
import { nodes } from '../lib/types.js';
import { useCan } from '../lib/viewerContext.js';
import { Empty, ErrorBox, Loading, PageHeader, ReadOnlyNote } from '../components/ui.js';
import { useReflectionData, useRunActions } from '../components/reflections/useReflections.js';
import { ReflectionControls } from '../components/reflections/ReflectionControls.js';
import { MoodPanel } from '../components/reflections/MoodPanel.js';
import { RunsPanel } from '../components/reflections/RunsPanel.js';
import { RunPanel } from '../components/reflections/RunPanel.js';

export function Reflections(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const people = useQuery(AGENTS);
  const agents = nodes(people.data?.agents);
  const agent = p.query.get('agent') ?? agents[0]?.id ?? '';
  const runId = p.query.get('run') ?? '';
  const { state, list, detail, refresh, live } = useReflectionData(agent, runId);
  const actions = useRunActions(agent, refresh);
  const run = runId && detail.data?.reflection.id === runId ? detail.data.reflection : undefined;
  return (
    <>
      <PageHeader
        title={t('reflections.title')}
        sub={t('reflections.sub')}
        actions={
          <ReflectionControls
            {...{ agent, agents, live, canAct }}
            busy={actions.busy}
            onPick={(v) => actions.go(v, '')}
            onReflect={() => void actions.reflectNow()}
          />
        }
      />
      {!canAct && <ReadOnlyNote needs="operator" />}
      <ErrorBox error={people.error ?? state.error ?? list.error} />
      <ErrorBox error={actions.error} />
      {!agent ? (
        people.loading ? (
          <Loading what="agents" />
        ) : (
          <Empty>{t('common.noAgents')}</Empty>
        )
      ) : (
        <>
          <MoodPanel state={state.data?.reflectionState} />
          <RunsPanel
            runs={nodes(list.data?.reflections)}
            more={!!list.data?.reflections.pageInfo?.hasNextPage}
            loading={!list.data && list.loading}
            {...{ agent, canAct }}
            selected={runId}
            busy={actions.busy}
            onOpen={(id) => actions.go(agent, id)}
            onRollBack={actions.rollBack}
          />
          {runId && (
            <RunPanel run={run} loading={detail.loading} error={detail.error} onClose={() => actions.go(agent, '')} />
          )}
        </>
      )}
    </>
  );
}
