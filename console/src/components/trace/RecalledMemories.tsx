// The memories recall put into a turn's prompt, in rank order, with their scores when the
// event recorded them, and the queries recall searched with.
import { graphql, type FragmentOf, type VariablesOf } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import type { ContextBuild } from '../../lib/trace.js';
import { formatMs } from '../../lib/time.js';
import { Link } from '../../lib/router.js';
import { Badge, Empty } from '../ui.js';
import { Importance, MemoryStatus, Relevance } from '../MemoryScore.js';
import { bestScore } from '../../lib/scores.js';
import { useI18n } from '../../lib/i18n.js';

const RecalledMemory = graphql(`
  fragment RecalledMemory on Memory {
    id
    text
    kind
    importance
    status
    ownerId
    subjectId
  }
`);
type MemoryRow = FragmentOf<typeof RecalledMemory>;

// One aliased field per memory (the API has no list-by-ids; at most 15 aliases a request), ten a
// request. A shorter chunk asks for its first memory again in the unused fields (the API's
// loader reads it once), so the document stays one the schema checks.
const RECALLED = graphql(
  `
    query Recalled($m0: ID!, $m1: ID!, $m2: ID!, $m3: ID!, $m4: ID!, $m5: ID!, $m6: ID!, $m7: ID!, $m8: ID!, $m9: ID!) {
      m0: memory(id: $m0) {
        ...RecalledMemory
      }
      m1: memory(id: $m1) {
        ...RecalledMemory
      }
      m2: memory(id: $m2) {
        ...RecalledMemory
      }
      m3: memory(id: $m3) {
        ...RecalledMemory
      }
      m4: memory(id: $m4) {
        ...RecalledMemory
      }
      m5: memory(id: $m5) {
        ...RecalledMemory
      }
      m6: memory(id: $m6) {
        ...RecalledMemory
      }
      m7: memory(id: $m7) {
        ...RecalledMemory
      }
      m8: memory(id: $m8) {
        ...RecalledMemory
      }
      m9: memory(id: $m9) {
        ...RecalledMemory
      }
    }
  `,
  [RecalledMemory],
);
const KEYS = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9'] as const;
const CHUNK = KEYS.length;

const variablesFor = (ids: string[]) =>
  // Every key gets an id (KEYS are the document's variables), which the record type cannot show.
  Object.fromEntries(KEYS.map((k, i) => [k, ids[i] ?? ids[0] ?? ''])) as VariablesOf<typeof RECALLED>;

function useMemories(ids: string[]): { rows: Array<MemoryRow | undefined>; error: unknown } {
  const chunks = [ids.slice(0, CHUNK), ids.slice(CHUNK, 2 * CHUNK)];
  const a = useQuery(RECALLED, variablesFor(chunks[0]!), { skip: chunks[0]!.length === 0 });
  const b = useQuery(RECALLED, variablesFor(chunks[1]!), { skip: chunks[1]!.length === 0 });
  const rows = [...chunks[0]!.map((_, i) => a.data?.[KEYS[i]!]), ...chunks[1]!.map((_, i) => b.data?.[KEYS[i]!])];
  return { rows, error: a.error ?? b.error };
}

export function RecalledMemories(p: { recall: NonNullable<ContextBuild['recall']> }) {
  const { recall } = p;
  const ids = recall.memoryIds.slice(0, 2 * CHUNK);
  const { rows } = useMemories(ids);
  const hasScores = Object.keys(recall.scores).length > 0;
  const best = bestScore(Object.values(recall.scores));
  const { t } = useI18n();
  return (
    <div data-testid="recall">
      <div class="kv-row">
        <span>
          {t('recall.count', { n: recall.memoryIds.length })}{' '}
          {recall.deep && <Badge tone="info">{t('recall.deep')}</Badge>}
          {recall.degraded && <Badge tone="warn">{recall.degraded}</Badge>}
        </span>
        {recall.totalMs !== null && <span>{t('recall.took', { ms: formatMs(recall.totalMs) })}</span>}
      </div>
      {recall.queries.length > 0 && (
        <div class="small">
          {t('common.queries')}{' '}
          {recall.queries.map((q) => (
            <span class="chip">{q}</span>
          ))}
        </div>
      )}
      {ids.length === 0 ? (
        <Empty>{t('recall.none')}</Empty>
      ) : (
        <table class="table stack compact">
          <thead>
            <tr>
              <th scope="col" class="num">
                #
              </th>
              <th scope="col">{t('th.memory')}</th>
              <th scope="col">{t('th.kind')}</th>
              <th scope="col" class="num">
                {t('trace.score.importanceCol')}
              </th>
              <th scope="col" class="num">
                {t('trace.score.relevanceCol')}
              </th>
              <th scope="col">{t('recall.now')}</th>
            </tr>
          </thead>
          <tbody>
            {ids.map((id, i) => {
              const m = rows[i];
              const score = recall.scores[id];
              return (
                <tr data-testid="recalled-memory">
                  <td data-label="#" class="num">
                    {i + 1}
                  </td>
                  <td data-label={t('th.memory')}>
                    {m ? m.text : <span class="muted mono small">{id}</span>}
                    {m && (
                      <div>
                        <Link
                          class="small"
                          href={`/memories?agent=${encodeURIComponent(m.ownerId)}${m.subjectId ? `&human=${encodeURIComponent(m.subjectId)}` : ''}`}
                        >
                          {t('recall.pair')}
                        </Link>
                      </div>
                    )}
                  </td>
                  <td data-label={t('th.kind')}>{m?.kind}</td>
                  <td data-label={t('trace.score.importanceCol')} class="num">
                    {m ? <Importance value={m.importance} bare /> : ''}
                  </td>
                  <td data-label={t('trace.score.relevanceCol')} class="num">
                    {score !== undefined ? <Relevance score={score} best={best} bare /> : <span class="muted">—</span>}
                  </td>
                  <td data-label={t('recall.now')}>{m && <MemoryStatus status={m.status} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {ids.length > 0 && !hasScores && <div class="muted small">{t('recall.noScores')}</div>}
    </div>
  );
}
