// The story panel's header: the live state, the director's state and (operators) turning it on
// or off and switching the background.
import { useI18n } from '../../lib/i18n.js';
import type { LiveState } from '../../lib/live.js';
import { useCan } from '../../lib/viewerContext.js';
import { Badge } from '../ui.js';
import type { StoryActions } from './useStory.js';

export function StoryControls(p: {
  live: LiveState;
  director: boolean;
  busy: boolean;
  round: number;
  background: string;
  backgrounds: { id: string; name: string }[];
  actions: StoryActions;
}) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const { director, busy } = p;
  return (
    <>
      <span class={`live-dot ${p.live}`} title={t('story.liveTitle', { state: t(`live.${p.live}`) })}>
        <i />
      </span>
      <Badge tone={director ? 'info' : 'muted'}>{director ? t('story.directorOn') : t('story.directorOff')}</Badge>
      {canAct && (
        <>
          <button
            class="small"
            data-testid="story-director"
            disabled={busy}
            title={t('story.directorTip')}
            onClick={() => p.actions.setDirector(!director)}
          >
            {director ? t('story.turnDirectorOff') : t('story.turnDirectorOn')}
          </button>
          <label class="inline-field">
            <span>{t('story.background')}</span>
            <select
              key={`bg-${p.round}`}
              data-testid="story-background"
              disabled={busy}
              value={p.background}
              onChange={(e) => p.actions.switchBackground(e.currentTarget.value || null)}
            >
              <option value="">{t('story.noBackground')}</option>
              {p.backgrounds.map((b) => (
                <option value={b.id}>{b.name}</option>
              ))}
            </select>
          </label>
        </>
      )}
    </>
  );
}
