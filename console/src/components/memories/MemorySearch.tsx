// Why a component: the semantic search (form, the queries it ran, ranked hits) is its own panel.
import { useI18n } from '../../lib/i18n.js';
import { bestScore } from '../../lib/scores.js';
import { MemoryRow } from '../MemoryRow.js';
import { Empty, ErrorBox, Panel } from '../ui.js';
import type { useMemories } from './useMemories.js';

export function MemorySearch(p: {
  searching: ReturnType<typeof useMemories>['searching'];
  agent: string;
  canAct: boolean;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const { text, setText, hits, setHits, searchError, search } = p.searching;
  return (
    <Panel title={t('memories.search')}>
      <form class="row" onSubmit={search}>
        <input
          class="grow"
          placeholder={t('memories.placeholder')}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" disabled={!p.agent || !text.trim()}>
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
                  canAct={p.canAct}
                  onChanged={p.onChanged}
                />
              ))}
            </ul>
          )}
        </>
      )}
    </Panel>
  );
}
