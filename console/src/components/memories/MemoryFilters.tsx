// Why a component: the header's three filters (agent, about whom, status) are one job apart from the lists.
import { useI18n } from '../../lib/i18n.js';
import { useMemoryStatusLabel } from '../MemoryScore.js';
import { Select } from '../ui.js';
import type { useMemories } from './useMemories.js';

export function MemoryFilters(p: { filters: ReturnType<typeof useMemories>['filters'] }) {
  const { t } = useI18n();
  const statusLabel = useMemoryStatusLabel();
  const { agents, humans, agent, human, status, set } = p.filters;
  return (
    <>
      <Select
        label={t('th.agent')}
        value={agent}
        options={agents.map((a) => ({ value: a.id, label: a.name }))}
        onChange={(v) => set('agent', v)}
      />
      <Select
        label={t('memories.about')}
        value={human}
        options={[
          { value: '', label: t('memories.everyone') },
          ...humans.map((h) => ({ value: h.id, label: h.displayName })),
        ]}
        onChange={(v) => set('human', v)}
      />
      <Select
        label={t('th.status')}
        value={status}
        options={['active', 'superseded', 'merged', 'pruned', 'all'].map((v) => ({
          value: v,
          label: statusLabel(v),
        }))}
        onChange={(v) => set('status', v)}
      />
    </>
  );
}
