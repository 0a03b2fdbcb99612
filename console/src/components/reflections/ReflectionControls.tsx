// The reflections page's header actions: the live state, the agent picker and "reflect now".
import type { LiveState } from '../../lib/live.js';
import { useI18n } from '../../lib/i18n.js';
import { LiveDot, Select } from '../ui.js';

export function ReflectionControls(p: {
  agent: string;
  agents: { id: string; name: string }[];
  live: LiveState;
  canAct: boolean;
  busy: boolean;
  onPick: (agentId: string) => void;
  onReflect: () => void;
}) {
  const { t } = useI18n();
  return (
    <>
      {p.agent && <LiveDot state={p.live} />}
      <Select
        label={t('th.agent')}
        value={p.agent}
        options={p.agents.map((a) => ({ value: a.id, label: a.name }))}
        onChange={p.onPick}
      />
      {p.canAct && (
        <button data-testid="reflect-now" disabled={!p.agent || p.busy} onClick={p.onReflect}>
          {t('reflections.reflectNow')}
        </button>
      )}
    </>
  );
}
