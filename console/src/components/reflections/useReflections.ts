// The reflections page's state: the agent's mood and runs and the open run, kept live from
// reflectionEvents, and the run actions (open, start, roll back) with their busy flag and error.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { useDebounced, useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { useSubscription } from '../../lib/live.js';
import { navigate } from '../../lib/router.js';
import { DETAIL, EVENTS, LIST, ROLLBACK, STATE, TRIGGER } from '../../lib/reflectionQueries.js';

/** The agent's state, its runs and the open run, reloaded (debounced) on every reflection event. */
export function useReflectionData(agent: string, runId: string) {
  const state = useQuery(STATE, { agent }, { skip: !agent });
  const list = useQuery(LIST, { agent }, { skip: !agent });
  const detail = useQuery(DETAIL, { id: runId }, { skip: !runId });
  const refresh = useDebounced(() => {
    void state.reload();
    void list.reload();
    if (runId) void detail.reload();
  }, 300);
  const live = useSubscription(EVENTS, { agent }, refresh, !!agent);
  return { state, list, detail, refresh, live };
}

/** Opening a run (in the address), starting one and rolling one back; each refreshes after. */
export function useRunActions(agent: string, refresh: () => void) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const go = (agentId: string, run: string) => {
    const next = new URLSearchParams();
    if (agentId) next.set('agent', agentId);
    if (run) next.set('run', run);
    setError(undefined);
    navigate(`/reflections?${next.toString()}`, { replace: true });
  };
  const act = async (fn: () => Promise<void>) => {
    setError(undefined);
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      setError(e);
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
  return { error, busy, go, reflectNow, rollBack };
}

export type RunActions = ReturnType<typeof useRunActions>;
