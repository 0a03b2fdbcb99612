// Why a component: a memory's facts line (status, scores, recall, origin, links) is one view apart from its actions.
import { Link } from '../../lib/router.js';
import { useI18n } from '../../lib/i18n.js';
import { Badge, Time } from '../ui.js';
import { Importance, MemoryStatus, Relevance } from '../MemoryScore.js';
import type { MemoryView } from '../MemoryRow.js';

/** Where the memory was learned: a private chat, a group (named, linked), or unknown (older data). */
function Origin(p: { origin: MemoryView['origin'] }) {
  const o = p.origin;
  const { t } = useI18n();
  if (!o) return <span data-testid="memory-origin">{t('memory.learnedUnknown')}</span>;
  const href = `/dialogues/${encodeURIComponent(o.dialogueId)}`;
  const name =
    o.scope === 'PRIVATE'
      ? t('memory.private')
      : t('memory.group', { name: o.dialogue ? (o.dialogue.title ?? t('common.untitled')) : t('memory.deleted') });
  return (
    <span data-testid="memory-origin">
      {t('memory.learnedIn')} {o.dialogue ? <Link href={href}>{name}</Link> : name}
    </span>
  );
}

export function MemoryMeta(p: { m: MemoryView; score?: { value: number; best: number } }) {
  const { m } = p;
  const { t } = useI18n();
  const turn = m.sources.turnIds.at(-1);
  return (
    <div class="memory-meta">
      <MemoryStatus status={m.status} /> <Badge tone="plain">{m.kind}</Badge>
      <Importance value={m.importance} />
      {p.score !== undefined && <Relevance score={p.score.value} best={p.score.best} />}
      <span>
        {t('memory.recalled', { n: m.recallCount })}{' '}
        {m.lastRecalledAt && (
          <>
            ({t('memory.last')} <Time at={m.lastRecalledAt} relative />)
          </>
        )}
      </span>
      {m.subject && <span>{t('common.about', { name: m.subject.displayName })}</span>}
      <Origin origin={m.origin} />
      {m.visibility === 'SHARED' && (
        <span title={t('memory.sharedTip')}>
          <Badge tone="info">{t('memory.sharedBadge')}</Badge>
        </span>
      )}
      <span>
        {t('memory.happened')} <Time at={m.occurredAt} />
      </span>
      {m.sources.dialogueId && (
        <Link href={`/dialogues/${encodeURIComponent(m.sources.dialogueId)}`}>{t('memory.dialogue')}</Link>
      )}
      {turn && <Link href={`/turns/${encodeURIComponent(turn)}`}>{t('memory.turn')}</Link>}
    </div>
  );
}
