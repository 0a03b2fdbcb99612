// A dialogue's story (seed 001), live from storyEvents: its background and world setting, the
// beats with their status, the replies without progress against the director's reminder
// threshold, and the recent steps with who made them and their evidence. Operators switch the
// background, turn the director on or off and set a beat's status; viewers only read.
import { useI18n } from '../../lib/i18n.js';
import { describeEvent } from '../../lib/storyText.js';
import type { EventView, StoryView } from '../../lib/types.js';
import { useCan } from '../../lib/viewerContext.js';
import { Badge, Collapsible, ErrorBox, Loading, Panel, Rich, Time } from '../ui.js';
import { StoryBeats } from './StoryBeats.js';
import { StoryControls } from './StoryControls.js';
import { StorySteps } from './StorySteps.js';
import { useStory } from './useStory.js';

export function StoryPanel(p: { dialogueId: string }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const s = useStory(p.dialogueId);
  if (s.q.error)
    return (
      <Panel title={t('story.title')}>
        <ErrorBox error={s.q.error} title={t('story.cannotShow')} />
      </Panel>
    );
  if (!s.q.data) return <Loading what="the story" />;
  const { director, story } = s.q.data.dialogue;
  const options = [...(s.bgs.data?.backgrounds ?? [])];
  if (story && !options.some((b) => b.id === story.background.id)) options.push(story.background);
  const controls = (
    <StoryControls
      live={s.live}
      director={director}
      busy={s.busy}
      round={s.round}
      background={story?.background.id ?? ''}
      backgrounds={options}
      actions={s.actions}
    />
  );
  if (!story)
    return (
      <Panel title={t('story.title')} actions={controls} class="story">
        <ErrorBox error={s.error} />
        <div class="muted small" data-testid="story-none">
          {canAct ? t('story.noneCanAct') : t('story.none')}
        </div>
      </Panel>
    );
  return (
    <Panel
      class="story"
      title={
        <>
          {t('story.title')} · <span data-testid="story-name">{story.background.name}</span>
        </>
      }
      actions={controls}
    >
      <div data-testid="story-panel">
        <ErrorBox error={s.error} />
        <StoryProgress
          story={story}
          director={director}
          threshold={s.q.data.config.thresholds.rag_fallback_threshold}
        />
        <LastEvent last={s.last} />
        {story.background.worldSetting.trim() && (
          <Collapsible summary={t('story.worldSetting')}>
            <p class="prewrap story-setting">{story.background.worldSetting}</p>
          </Collapsible>
        )}
        <div class="story-grid">
          <StoryBeats beats={story.beats} busy={s.busy} round={s.round} actions={s.actions} />
          <StorySteps steps={story.steps} />
        </div>
      </div>
    </Panel>
  );
}

/** Replies without progress against the director's reminder threshold. */
function StoryProgress(p: { story: StoryView; director: boolean; threshold: number }) {
  const { t } = useI18n();
  const { story, threshold } = p;
  return (
    <div class="story-meta" data-testid="story-progress">
      <span>
        <Rich
          text={t(story.noUpdateCount === 1 ? 'story.noProgressOne' : 'story.noProgressMany')}
          parts={{ n: <strong>{story.noUpdateCount}</strong> }}
        />
      </span>
      {!p.director ? (
        <span class="small">{t('story.directorIsOff')}</span>
      ) : story.noUpdateCount >= threshold ? (
        <Badge tone="warn">{t('story.reminderDue', { threshold })}</Badge>
      ) : (
        <span class="small">{t('story.reminderAfter', { threshold })}</span>
      )}
    </div>
  );
}

/** The latest director event seen live, in a line. */
function LastEvent(p: { last: EventView | null }) {
  const { t } = useI18n();
  if (!p.last) return null;
  return (
    <div class="story-meta small" data-testid="story-last">
      {t('story.latest', { event: describeEvent(t, p.last) })} · <Time at={p.last.at} />
    </div>
  );
}
