// What an agent remembers, about everyone or one human: the entries with their supersede
// chains, a semantic search ranked as a turn's recall ranks, and (for operators) retire/edit.
import { useState } from 'preact/hooks';
import { gql } from '../lib/api.js';
import { graphql, type ResultOf, type VariablesOf } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import { useCan } from '../lib/viewerContext.js';
import { nodes } from '../lib/types.js';
import { Empty, ErrorBox, Loading, PageHeader, Panel, ReadOnlyNote, Select } from '../components/ui.js';
import { MemoryFields, MemoryRow } from '../components/MemoryRow.js';
import { useMemoryStatusLabel } from '../components/MemoryScore.js';
import { bestScore } from '../lib/scores.js';
import { useI18n } from '../lib/i18n.js';

const PEOPLE = graphql(`
  query People {
    agents(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
    humans(first: 100) {
      edges {
        node {
          id
          displayName
        }
      }
    }
  }
`);
const LIST = graphql(
  `
    query Memories($owner: ID, $subject: ID, $status: MemoryStatus) {
      memories(first: 100, ownerId: $owner, subjectId: $subject, status: $status) {
        edges {
          node {
            ...MemoryFields
          }
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  `,
  [MemoryFields],
);
const SEARCH = graphql(
  `
    query Search($owner: ID!, $subject: ID, $text: String!) {
      searchMemories(ownerId: $owner, subjectId: $subject, text: $text, limit: 20) {
        queries
        keywordOnly
        hits {
          score
          memory {
            ...MemoryFields
          }
        }
      }
    }
  `,
  [MemoryFields],
);

type Hits = ResultOf<typeof SEARCH>['searchMemories'];
type MemoryStatus = VariablesOf<typeof LIST>['status'];

export function Memories(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const statusLabel = useMemoryStatusLabel();
  const canAct = useCan('operator');
  const people = useQuery(PEOPLE);
  const agents = nodes(people.data?.agents);
  const humans = nodes(people.data?.humans);
  const agent = p.query.get('agent') ?? agents[0]?.id ?? '';
  const human = p.query.get('human') ?? '';
  const status = p.query.get('status') ?? 'active';
  const list = useQuery(
    LIST,
    // The status comes from the address: one the API does not know is refused, shown as the list's error.
    { owner: agent || null, subject: human || null, status: status === 'all' ? null : (status as MemoryStatus) },
    { skip: !agent },
  );
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hits | null>(null);
  const [searchError, setSearchError] = useState<unknown>();

  const set = (k: string, v: string) => {
    const next = new URLSearchParams(p.query);
    next.set('agent', agent);
    if (v) next.set(k, v);
    else next.delete(k);
    setHits(null);
    navigate(`/memories?${next.toString()}`, { replace: true });
  };
  const search = async (e: Event) => {
    e.preventDefault();
    setSearchError(undefined);
    try {
      const r = await gql(SEARCH, { owner: agent, subject: human || null, text });
      setHits(r.searchMemories);
    } catch (err) {
      setSearchError(err);
    }
  };
  const changed = () => {
    void list.reload();
    setHits(null);
  };
  const memories = nodes(list.data?.memories);

  return (
    <>
      <PageHeader
        title={t('memories.title')}
        sub={t('memories.sub')}
        actions={
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
        }
      />
      {!canAct && <ReadOnlyNote needs="operator" />}
      <ErrorBox error={people.error ?? list.error} />
      <Panel title={t('memories.search')}>
        <form class="row" onSubmit={search}>
          <input
            class="grow"
            placeholder={t('memories.placeholder')}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <button type="submit" disabled={!agent || !text.trim()}>
            {t('common.search')}
          </button>
          {hits && (
            <button type="button" class="link" onClick={() => setHits(null)}>
              {t('memories.clear')}
            </button>
          )}
        </form>
        <ErrorBox error={searchError} />
        {hits && (
          <>
            <div class="muted small">
              {t('memories.queries', { q: hits.queries.join(' · ') })} {hits.keywordOnly && t('memories.keywordOnly')}
            </div>
            {hits.hits.length === 0 ? (
              <Empty>{t('memories.noMatch')}</Empty>
            ) : (
              <ul class="memories">
                {hits.hits.map((h) => (
                  <MemoryRow
                    key={h.memory.id}
                    m={h.memory}
                    score={{ value: h.score, best: bestScore(hits.hits.map((x) => x.score)) }}
                    canAct={canAct}
                    onChanged={changed}
                  />
                ))}
              </ul>
            )}
          </>
        )}
      </Panel>
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
