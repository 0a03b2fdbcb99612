// The story's latest steps, newest first: who moved which beat to what, and the messages that
// were its evidence.
import { useI18n } from '../../lib/i18n.js';
import { BEAT_TONE, word } from '../../lib/storyText.js';
import type { StoryView } from '../../lib/types.js';
import { Badge, Time } from '../ui.js';

/** The latest steps shown, newest first. */
const STEPS_SHOWN = 8;

export function StorySteps(p: { steps: StoryView['steps'] }) {
  const { t } = useI18n();
  const steps = p.steps.slice(-STEPS_SHOWN).reverse();
  return (
    <div>
      <div class="label">
        {t('story.recentSteps')}
        {p.steps.length > STEPS_SHOWN && t('story.stepsShown', { shown: STEPS_SHOWN, total: p.steps.length })}
      </div>
      {steps.length === 0 ? (
        <div class="muted small">{t('story.noSteps')}</div>
      ) : (
        <ul class="steps" data-testid="story-steps">
          {steps.map((s) => (
            <li data-testid="step">
              <div class="row">
                <Badge tone={s.by === 'director' ? 'info' : 'plain'}>{word(t, 'story.by.', s.by)}</Badge>
                <span>
                  {t('story.stepBeat', { n: s.n })}{' '}
                  <Badge tone={BEAT_TONE[s.status]}>{word(t, 'story.beat.', s.status)}</Badge>
                </span>
              </div>
              <div class="evidence small muted">
                <Time at={s.at} />
                {s.messageIds.length > 0 && (
                  <>
                    {' '}
                    · {t('story.evidence')}{' '}
                    {s.messageIds.map((id) => (
                      <span class="chip mono" title={id} data-testid="evidence">
                        {id}
                      </span>
                    ))}
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
