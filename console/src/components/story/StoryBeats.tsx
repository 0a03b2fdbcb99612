// The story's beats in order with their status; operators set a beat's status in place.
import { useI18n } from '../../lib/i18n.js';
import { BEAT_TONE, word } from '../../lib/storyText.js';
import { BEAT_STATUSES, type BeatStatus, type StoryView } from '../../lib/types.js';
import { useCan } from '../../lib/viewerContext.js';
import { Badge } from '../ui.js';
import type { StoryActions } from './useStory.js';

export function StoryBeats(p: { beats: StoryView['beats']; busy: boolean; round: number; actions: StoryActions }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const beat = (status: string) => word(t, 'story.beat.', status);
  return (
    <ol class="beats" data-testid="story-beats">
      {p.beats.map((b) => (
        <li class={`beat ${b.status}`} data-testid="beat">
          <span class="beat-n">{b.n}.</span>
          <span class="beat-text">{b.text}</span>
          <Badge tone={BEAT_TONE[b.status]}>{beat(b.status)}</Badge>
          {canAct && (
            <select
              key={`beat-${b.n}-${p.round}`}
              aria-label={t('story.setBeat', { n: b.n })}
              data-testid="beat-status"
              disabled={p.busy}
              value={b.status}
              onChange={(e) =>
                // The options are BEAT_STATUSES, so the value is one of them.
                p.actions.setBeat(b.n, e.currentTarget.value as BeatStatus)
              }
            >
              {BEAT_STATUSES.map((s) => (
                <option value={s}>{beat(s)}</option>
              ))}
            </select>
          )}
        </li>
      ))}
    </ol>
  );
}
