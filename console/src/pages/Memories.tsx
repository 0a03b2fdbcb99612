// What an agent remembers, about everyone or one human: the entries with their supersede
// chains, a semantic search ranked as a turn's recall ranks, and (for operators) retire/edit.
import { useCan } from '../lib/viewerContext.js';
import { Empty, ErrorBox, Loading, PageHeader, Panel, ReadOnlyNote } from '../components/ui.js';
import { MemoryRow } from '../components/MemoryRow.js';
import { useMemoryStatusLabel } from '../components/MemoryScore.js';
import { useI18n } from '../lib/i18n.js';
import { useMemories } from '../components/memories/useMemories.js';
import { MemoryFilters } from '../components/memories/MemoryFilters.js';
import { MemorySearch } from '../components/memories/MemorySearch.js';

export function Memories(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const statusLabel = useMemoryStatusLabel();
  const canAct = useCan('operator');
  const { people, list, memories, changed, filters, searching } = useMemories(p.query);
  const { agent, status } = filters;

  return (
    <>
      <PageHeader title={t('memories.title')} sub={t('memories.sub')} actions={<MemoryFilters filters={filters} />} />
      {!canAct && <ReadOnlyNote needs="operator" />}
      <ErrorBox error={people.error ?? list.error} />
      <MemorySearch searching={searching} agent={agent} canAct={canAct} onChanged={changed} />
      <Panel
        title={`${t('memories.entries')}${memories.length ? ` (${memories.length}${list.data?.memories.pageInfo?.hasNextPage ? '+' : ''})` : ''}`}
      >
        {!agent ? (
          <Empty>{t('common.noAgents')}</Empty>
        ) : !list.data && list.loading ? (
          <Loading what="memories" />
        ) : memories.length === 0 ? (
          <Empty>{t('memories.none', { status: status === 'all' ? '' : statusLabel(status) })}</Empty>
        ) : (
          <ul class="memories">
            {memories.map((m) => (
              <MemoryRow key={m.id} m={m} canAct={canAct} onChanged={changed} />
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
