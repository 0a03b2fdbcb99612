// A dialogue's story (seed 001), live from storyEvents: its background and world setting, the
// beats with their status, the replies without progress against the director's reminder
// threshold, and the recent steps with who made them and their evidence. Operators switch the
// background, turn the director on or off and set a beat's status; viewers only read.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { useCan } from '../lib/viewerContext.js';
import { BEAT_STATUSES, STORY_FIELDS, type BeatStatus, type EventView, type StoryView } from '../lib/types.js';
import { Badge, Collapsible, ErrorBox, Loading, Panel, Time } from './ui.js';

const STORY = `query Story($id: ID!) {
  dialogue(id: $id) { id director story { ${STORY_FIELDS} } }
  config { thresholds { rag_fallback_threshold } }
}`;
const BACKGROUNDS = `query Backgrounds { backgrounds { id name } }`;
const SWITCH = `mutation SwitchBackground($id: ID!, $backgroundId: ID) {
  switchBackground(dialogueId: $id, backgroundId: $backgroundId) { noUpdateCount }
}`;
const SET_BEAT = `mutation SetBeat($id: ID!, $n: Int!, $status: BeatStatus!) {
  setBeatStatus(dialogueId: $id, n: $n, status: $status) { noUpdateCount }
}`;
const DIRECTOR = `mutation SetDirector($id: ID!, $on: Boolean!) { setDirector(dialogueId: $id, on: $on) }`;
const EVENTS = `subscription StoryEvents($id: ID!) { storyEvents(dialogueId: $id) { id kind at turnId messageId data } }`;

type StoryData = {
  dialogue: { id: string; director: boolean; story: StoryView | null };
  config: { thresholds: { rag_fallback_threshold: number } };
};

/** The latest steps shown, newest first. */
const STEPS_SHOWN = 8;

const BEAT_TONE: Record<BeatStatus, 'plain' | 'info' | 'ok' | 'muted'> = {
  pending: 'plain',
  active: 'info',
  done: 'ok',
  skipped: 'muted',
};

export function StoryPanel(p: { dialogueId: string }) {
  const canAct = useCan('operator');
  const q = useQuery<StoryData>(STORY, { id: p.dialogueId });
  const bgs = useQuery<{ backgrounds: Array<{ id: string; name: string }> }>(BACKGROUNDS, {}, { skip: !canAct });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Bumped after every action so selects show the record again, also after a refusal.
  const [round, setRound] = useState(0);
  const [last, setLast] = useState<EventView | null>(null);
  const refresh = useDebounced(() => void q.reload(), 300);
  const live = useSubscription<{ storyEvents: EventView }>(EVENTS, { id: p.dialogueId }, ({ storyEvents: e }) => {
    setLast(e);
    refresh();
  });

  if (q.error)
    return (
      <Panel title="Story">
        <ErrorBox error={q.error} title="The story cannot be shown" />
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
      setError(errorText(err));
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
      <span class={`live-dot ${live}`} title={`Story events: ${live}`}>
        <i />
      </span>
      <Badge tone={director ? 'info' : 'muted'}>{director ? 'director on' : 'director off'}</Badge>
      {canAct && (
        <>
          <button
            class="small"
            data-testid="story-director"
            disabled={busy}
            title="The director puts the outline in the context and lets replies' progress markers move the plot"
            onClick={() => act(() => gql(DIRECTOR, { id: p.dialogueId, on: !director }))}
          >
            {director ? 'Turn director off' : 'Turn director on'}
          </button>
          <label class="inline-field">
            <span>Background</span>
            <select
              key={`bg-${round}`}
              data-testid="story-background"
              disabled={busy}
              value={story?.background.id ?? ''}
              onChange={(e) =>
                act(() => gql(SWITCH, { id: p.dialogueId, backgroundId: e.currentTarget.value || null }))
              }
            >
              <option value="">none</option>
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
      <Panel title="Story" actions={controls} class="story">
        <ErrorBox error={error ?? bgs.error} />
        <div class="muted small" data-testid="story-none">
          This dialogue follows no background{canAct ? ': pick one to start its story.' : '.'}
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
          Story · <span data-testid="story-name">{story.background.name}</span>
        </>
      }
      actions={controls}
    >
      <div data-testid="story-panel">
        <ErrorBox error={error ?? bgs.error} />
        <div class="story-meta" data-testid="story-progress">
          <span>
            No progress for <strong>{story.noUpdateCount}</strong> {story.noUpdateCount === 1 ? 'reply' : 'replies'}
          </span>
          {!director ? (
            <span class="small">(the director is off: no reminder)</span>
          ) : due ? (
            <Badge tone="warn">reminder due (threshold {threshold})</Badge>
          ) : (
            <span class="small">the reminder comes after {threshold}</span>
          )}
        </div>
        {last && (
          <div class="story-meta small" data-testid="story-last">
            Latest: {describeEvent(last)} · <Time at={last.at} />
          </div>
        )}
        {story.background.worldSetting.trim() && (
          <Collapsible summary="World setting">
            <p class="prewrap story-setting">{story.background.worldSetting}</p>
          </Collapsible>
        )}
        <div class="story-grid">
          <ol class="beats" data-testid="story-beats">
            {story.beats.map((b) => (
              <li class={`beat ${b.status}`} data-testid="beat">
                <span class="beat-n">{b.n}.</span>
                <span class="beat-text">{b.text}</span>
                <Badge tone={BEAT_TONE[b.status]}>{b.status}</Badge>
                {canAct && (
                  <select
                    key={`beat-${b.n}-${round}`}
                    aria-label={`Set beat ${b.n}'s status`}
                    data-testid="beat-status"
                    disabled={busy}
                    value={b.status}
                    onChange={(e) =>
                      act(() => gql(SET_BEAT, { id: p.dialogueId, n: b.n, status: e.currentTarget.value }))
                    }
                  >
                    {BEAT_STATUSES.map((s) => (
                      <option value={s}>{s}</option>
                    ))}
                  </select>
                )}
              </li>
            ))}
          </ol>
          <div>
            <div class="label">
              Recent steps{story.steps.length > STEPS_SHOWN && ` (latest ${STEPS_SHOWN} of ${story.steps.length})`}
            </div>
            {steps.length === 0 ? (
              <div class="muted small">No beat has changed yet.</div>
            ) : (
              <ul class="steps" data-testid="story-steps">
                {steps.map((s) => (
                  <li data-testid="step">
                    <div class="row">
                      <Badge tone={s.by === 'director' ? 'info' : 'plain'}>{s.by}</Badge>
                      <span>
                        beat {s.n} → <Badge tone={BEAT_TONE[s.status]}>{s.status}</Badge>
                      </span>
                    </div>
                    <div class="evidence small muted">
                      <Time at={s.at} />
                      {s.messageIds.length > 0 && (
                        <>
                          {' '}
                          · evidence:{' '}
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
function describeEvent(e: EventView): string {
  const d = e.data as DirectorData;
  const moved = (a: DirectorData['applied']) => (a ?? []).map((x) => `beat ${x.n} → ${x.status}`).join(', ');
  if (d.by === 'operator')
    return 'switchedTo' in d
      ? d.switchedTo
        ? 'an operator switched the background'
        : 'an operator cleared the background'
      : `an operator set ${moved(d.applied)}`;
  const parts = [d.applied?.length ? `the director moved ${moved(d.applied)}` : 'a reply without progress'];
  if (d.refused?.length) parts.push(`refused ${d.refused.map((r) => `${r.marker} (${r.reason})`).join(', ')}`);
  if (d.fallbackDueNext) parts.push('the reminder is due next');
  return parts.join('; ');
}
