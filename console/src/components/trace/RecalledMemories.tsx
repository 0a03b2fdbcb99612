// The memories recall put into a turn's prompt, in rank order, with their scores when the
// event recorded them, and the queries recall searched with.
import { useQuery } from '../../lib/hooks.js';
import type { ContextBuild } from '../../lib/trace.js';
import { formatMs } from '../../lib/time.js';
import { Link } from '../../lib/router.js';
import { Badge, Empty } from '../ui.js';
import { Importance, MemoryStatus, Relevance } from '../MemoryScore.js';
import { bestScore } from '../../lib/scores.js';
import { useI18n } from '../../lib/i18n.js';

interface MemoryRow {
  id: string;
  text: string;
  kind: string;
  importance: number;
  status: string;
  ownerId: string;
  subjectId: string | null;
}

// One aliased field per memory (the API has no list-by-ids); the alias limit is 15 per request.
const CHUNK = 10;
const queryFor = (n: number) =>
  `query Recalled(${Array.from({ length: n }, (_, i) => `$m${i}: ID!`).join(', ')}) { ${Array.from(
    { length: n },
    (_, i) => `m${i}: memory(id: $m${i}) { id text kind importance status ownerId subjectId }`,
  ).join(' ')} }`;

function useMemories(ids: string[]): { rows: Array<MemoryRow | undefined>; error: unknown } {
  const chunks = [ids.slice(0, CHUNK), ids.slice(CHUNK, 2 * CHUNK)];
  const a = useQuery<Record<string, MemoryRow>>(
    queryFor(chunks[0]!.length),
    Object.fromEntries(chunks[0]!.map((id, i) => [`m${i}`, id])),
    { skip: chunks[0]!.length === 0 },
  );
  const b = useQuery<Record<string, MemoryRow>>(
    queryFor(chunks[1]!.length),
    Object.fromEntries(chunks[1]!.map((id, i) => [`m${i}`, id])),
    { skip: chunks[1]!.length === 0 },
  );
  const rows = [...chunks[0]!.map((_, i) => a.data?.[`m${i}`]), ...chunks[1]!.map((_, i) => b.data?.[`m${i}`])];
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
