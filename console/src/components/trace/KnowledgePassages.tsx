// The knowledge passages retrieved into a turn's prompt, numbered as the reply may cite them.
import type { ContextBuild } from '../../lib/trace.js';
import { Link } from '../../lib/router.js';
import { Badge, Empty } from '../ui.js';
import { useI18n } from '../../lib/i18n.js';

export function KnowledgePassages(p: { knowledge: NonNullable<ContextBuild['knowledge']> }) {
  const { knowledge } = p;
  const { t } = useI18n();
  return (
    <div data-testid="knowledge-passages">
      {knowledge.queries.length > 0 && (
        <div class="small">
          {t('common.queries')}{' '}
          {knowledge.queries.map((q) => (
            <span class="chip">{q}</span>
          ))}{' '}
          {knowledge.degraded && <Badge tone="warn">{knowledge.degraded}</Badge>}
        </div>
      )}
      {knowledge.chunks.length === 0 ? (
        <Empty>{t('knowledgePassages.none')}</Empty>
      ) : (
        <table class="table compact">
          <thead>
            <tr>
              <th scope="col" class="num">
                [n]
              </th>
              <th scope="col">{t('th.document')}</th>
              <th scope="col" class="num">
                {t('th.score')}
              </th>
            </tr>
          </thead>
          <tbody>
            {knowledge.chunks.map((c) => (
              <tr>
                <td class="num">{c.n ?? '—'}</td>
                <td>
                  <Link href="/knowledge">{c.documentName}</Link> <span class="mono small muted">{c.documentId}</span>
                </td>
                <td class="num">{c.score === null ? '—' : c.score.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
