// A dialogue's story (seed 001), live from storyEvents: its background and world setting, the
// beats with their status, the replies without progress against the director's reminder
// threshold, and the recent steps with who made them and their evidence. Operators switch the
// background, turn the director on or off and set a beat's status; viewers only read.
import { useState } from 'preact/hooks';
import { gql } from '../lib/api.js';
import { graphql } from '../lib/graphql.js';
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { useCan } from '../lib/viewerContext.js';
import { useI18n, type I18n } from '../lib/i18n.js';
import { isMessageKey } from '../i18n/messages.js';
import { BEAT_STATUSES, EventFields, StoryFields, type BeatStatus, type EventView } from '../lib/types.js';
import { Badge, Collapsible, ErrorBox, Loading, Panel, Rich, Time } from './ui.js';

const STORY = graphql(
  `
    query Story($id: ID!) {
      dialogue(id: $id) {
        id
        director
        story {
          ...StoryFields
        }
      }
      config {
        thresholds {
          rag_fallback_threshold
        }
      }
    }
  `,
  [StoryFields],
);
const BACKGROUNDS = graphql(`
  query Backgrounds {
    backgrounds {
      id
      name
    }
  }
`);
const SWITCH = graphql(`
  mutation SwitchBackground($id: ID!, $backgroundId: ID) {
    switchBackground(dialogueId: $id, backgroundId: $backgroundId) {
      noUpdateCount
    }
  }
`);
const SET_BEAT = graphql(`
  mutation SetBeat($id: ID!, $n: Int!, $status: BeatStatus!) {
    setBeatStatus(dialogueId: $id, n: $n, status: $status) {
      noUpdateCount
    }
  }
`);
const DIRECTOR = graphql(`
  mutation SetDirector($id: ID!, $on: Boolean!) {
    setDirector(dialogueId: $id, on: $on)
  }
`);
const EVENTS = graphql(
  `
    subscription StoryEvents($id: ID!) {
      storyEvents(dialogueId: $id) {
        ...EventFields
      }
    }
  `,
  [EventFields],
);

/** The latest steps shown, newest first. */
const STEPS_SHOWN = 8;

const BEAT_TONE: Record<BeatStatus, 'plain' | 'info' | 'ok' | 'muted'> = {
  pending: 'plain',
  active: 'info',
  done: 'ok',
  skipped: 'muted',
};

/** A catalogue word for a stored value (a beat's status, who moved it), else the value itself. */
const word = (t: I18n['t'], prefix: string, value: string): string => {
  const key = `${prefix}${value}`;
  return isMessageKey(key) ? t(key) : value;
};

export function StoryPanel(p: { dialogueId: string }) {
  const { t } = useI18n();
  const beat = (status: string) => word(t, 'story.beat.', status);
  const canAct = useCan('operator');
  const q = useQuery(STORY, { id: p.dialogueId });
  const bgs = useQuery(BACKGROUNDS, {}, { skip: !canAct });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Bumped after every action so selects show the record again, also after a refusal.
  const [round, setRound] = useState(0);
  const [last, setLast] = useState<EventView | null>(null);
  const refresh = useDebounced(() => void q.reload(), 300);
  const live = useSubscription(EVENTS, { id: p.dialogueId }, ({ storyEvents: e }) => {
    setLast(e);
    refresh();
  });

  if (q.error)
    return (
      <Panel title={t('story.title')}>
        <ErrorBox error={q.error} title={t('story.cannotShow')} />
      </Panel>
    );
  if (!q.data) return <Loading what="the story" />;
  const { director, story } = q.data.dialogue;
  const threshold = q.data.config.thresholds.rag_fallback_threshold;

  const act = async (what: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await what();
    } catch (err) {
      setError(err);
    } finally {
      await q.reload();
      setBusy(false);
      setRound((r) => r + 1);
    }
  };

  const options = [...(bgs.data?.backgrounds ?? [])];
  if (story && !options.some((b) => b.id === story.background.id)) options.push(story.background);
  const controls = (
    <>
      <span class={`live-dot ${live}`} title={t('story.liveTitle', { state: t(`live.${live}`) })}>
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
            onClick={() => act(() => gql(DIRECTOR, { id: p.dialogueId, on: !director }))}
          >
            {director ? t('story.turnDirectorOff') : t('story.turnDirectorOn')}
          </button>
          <label class="inline-field">
            <span>{t('story.background')}</span>
            <select
              key={`bg-${round}`}
              data-testid="story-background"
              disabled={busy}
              value={story?.background.id ?? ''}
              onChange={(e) =>
                act(() => gql(SWITCH, { id: p.dialogueId, backgroundId: e.currentTarget.value || null }))
              }
            >
              <option value="">{t('story.noBackground')}</option>
              {options.map((b) => (
                <option value={b.id}>{b.name}</option>
              ))}
            </select>
          </label>
        </>
      )}
    </>
  );

  if (!story)
    return (
      <Panel title={t('story.title')} actions={controls} class="story">
        <ErrorBox error={error ?? bgs.error} />
        <div class="muted small" data-testid="story-none">
          {canAct ? t('story.noneCanAct') : t('story.none')}
        </div>
      </Panel>
    );

  const steps = story.steps.slice(-STEPS_SHOWN).reverse();
  const due = story.noUpdateCount >= threshold;
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
        <ErrorBox error={error ?? bgs.error} />
        <div class="story-meta" data-testid="story-progress">
          <span>
            <Rich
              text={t(story.noUpdateCount === 1 ? 'story.noProgressOne' : 'story.noProgressMany')}
              parts={{ n: <strong>{story.noUpdateCount}</strong> }}
            />
          </span>
          {!director ? (
            <span class="small">{t('story.directorIsOff')}</span>
          ) : due ? (
            <Badge tone="warn">{t('story.reminderDue', { threshold })}</Badge>
          ) : (
            <span class="small">{t('story.reminderAfter', { threshold })}</span>
          )}
        </div>
        {last && (
          <div class="story-meta small" data-testid="story-last">
            {t('story.latest', { event: describeEvent(t, last) })} · <Time at={last.at} />
          </div>
        )}
        {story.background.worldSetting.trim() && (
          <Collapsible summary={t('story.worldSetting')}>
            <p class="prewrap story-setting">{story.background.worldSetting}</p>
          </Collapsible>
        )}
        <div class="story-grid">
          <ol class="beats" data-testid="story-beats">
            {story.beats.map((b) => (
              <li class={`beat ${b.status}`} data-testid="beat">
                <span class="beat-n">{b.n}.</span>
                <span class="beat-text">{b.text}</span>
                <Badge tone={BEAT_TONE[b.status]}>{beat(b.status)}</Badge>
                {canAct && (
                  <select
                    key={`beat-${b.n}-${round}`}
                    aria-label={t('story.setBeat', { n: b.n })}
                    data-testid="beat-status"
                    disabled={busy}
                    value={b.status}
                    onChange={(e) =>
                      // The options are BEAT_STATUSES, so the value is one of them.
                      act(() =>
                        gql(SET_BEAT, { id: p.dialogueId, n: b.n, status: e.currentTarget.value as BeatStatus }),
                      )
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
          <div>
            <div class="label">
              {t('story.recentSteps')}
              {story.steps.length > STEPS_SHOWN &&
                t('story.stepsShown', { shown: STEPS_SHOWN, total: story.steps.length })}
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
                        {t('story.stepBeat', { n: s.n })} <Badge tone={BEAT_TONE[s.status]}>{beat(s.status)}</Badge>
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
        </div>
      </div>
    </Panel>
  );
}

type DirectorData = {
  by?: string;
  switchedTo?: string | null;
  applied?: Array<{ n: number; status: string }>;
  refused?: Array<{ marker: string; reason: string }>;
  noUpdateCount?: number;
  fallbackDueNext?: boolean;
};

/** One director event in a line: an operator's change, or what a reply's markers did. */
function describeEvent(t: I18n['t'], e: EventView): string {
  const d = e.data as DirectorData;
  const sep = t('story.listSep');
  const moved = (a: DirectorData['applied']) =>
    (a ?? []).map((x) => t('story.moved', { n: x.n, status: word(t, 'story.beat.', x.status) })).join(sep);
  if (d.by === 'operator')
    return 'switchedTo' in d
      ? d.switchedTo
        ? t('story.event.switched')
        : t('story.event.cleared')
      : t('story.event.operatorSet', { moved: moved(d.applied) });
  const parts = [
    d.applied?.length ? t('story.event.directorMoved', { moved: moved(d.applied) }) : t('story.event.noProgress'),
  ];
  if (d.refused?.length) {
    const list = d.refused.map((r) =>
      t('story.event.refusedOne', { marker: r.marker, reason: word(t, 'story.refusal.', r.reason) }),
    );
    parts.push(t('story.event.refused', { list: list.join(sep) }));
  }
  if (d.fallbackDueNext) parts.push(t('story.event.dueNext'));
  return parts.join(t('story.eventSep'));
}
