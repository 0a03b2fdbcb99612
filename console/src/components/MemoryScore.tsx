// Memory scores and statuses shown the same way on every page: 0–100 % with a tooltip naming
// the score, and a status worded as the operator knows it (a retired entry is stored "pruned").
import { useI18n } from '../lib/i18n.js';
import type { MessageKey } from '../i18n/messages.js';
import { percent, rawScore, relevanceShare } from '../lib/scores.js';
import { Badge } from './ui.js';

/** Recall's score as a share of the best match in the same recall. */
export function Relevance(p: { score: number; best: number; bare?: boolean }) {
  const { t, locale } = useI18n();
  const value = percent(relevanceShare(p.score, p.best), locale);
  return (
    <span class="score" data-testid="memory-score" title={t('trace.score.relevanceTip', { raw: rawScore(p.score) })}>
      {p.bare ? value : t('trace.score.relevance', { value })}
    </span>
  );
}

export function Importance(p: { value: number; bare?: boolean }) {
  const { t, locale } = useI18n();
  const value = percent(p.value, locale);
  return (
    <span class="score" data-testid="memory-importance" title={t('trace.score.importanceTip')}>
      {p.bare ? value : t('trace.score.importance', { value })}
    </span>
  );
}

const STATUS_KEYS: Record<string, MessageKey> = {
  active: 'trace.memoryStatus.active',
  superseded: 'trace.memoryStatus.superseded',
  merged: 'trace.memoryStatus.merged',
  pruned: 'trace.memoryStatus.pruned',
  all: 'trace.memoryStatus.all',
};

/** The status's words; an unknown stored value is shown as stored. */
export function useMemoryStatusLabel(): (status: string) => string {
  const { t } = useI18n();
  return (status) => {
    const key = STATUS_KEYS[status];
    return key ? t(key) : status;
  };
}

const TONES: Record<string, 'ok' | 'muted'> = { active: 'ok', superseded: 'muted', merged: 'muted', pruned: 'muted' };

export function MemoryStatus(p: { status: string }) {
  const label = useMemoryStatusLabel();
  return (
    <span data-testid="memory-status" data-status={p.status}>
      <Badge tone={TONES[p.status] ?? 'plain'}>{label(p.status)}</Badge>
    </span>
  );
}
