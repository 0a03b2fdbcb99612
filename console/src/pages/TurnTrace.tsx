// One turn's trace (seed 000's DialogueTurn): what came in, the context that was built (every
// part with its tokens, the full prompt, the recalled memories), each model call, each tool
// call, the deliveries and anything else recorded — live while the turn is being answered.
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { Link } from '../lib/router.js';
import { participantNames, TRACE, traceParts, TURN_EVENTS } from '../lib/turnTraceQuery.js';
import { ErrorBox, LiveDot, Loading, PageHeader, Panel } from '../components/ui.js';
import { MessageBubble } from '../components/MessageBubble.js';
import { Timeline } from '../components/trace/Timeline.js';
import { DiffPicker } from '../components/trace/DiffPicker.js';
import { TurnSummary } from '../components/trace/TurnSummary.js';
import { ContextPanels } from '../components/trace/ContextPanels.js';
import { CallPanels } from '../components/trace/CallPanels.js';
import { useI18n } from '../lib/i18n.js';

export function TurnTracePage(p: { id: string }) {
  const i18n = useI18n();
  const q = useQuery(TRACE, { id: p.id });
  const refresh = useDebounced(() => void q.reload(), 300);
  const live = useSubscription(TURN_EVENTS, { id: p.id }, refresh, q.data?.turnTrace.turn.status === 'pending');
  if (q.error) return <ErrorBox error={q.error} title={i18n.t('turnTrace.cannotShow')} />;
  if (!q.data) return <Loading what="the trace" />;
  const tr = q.data.turnTrace;
  const t = tr.turn;
  const names = participantNames(t);
  const parts = traceParts(tr);
  return (
    <>
      <PageHeader
        title={i18n.t('turnTrace.title')}
        sub={
          <>
            <Link href={`/dialogues/${encodeURIComponent(t.dialogue.id)}?session=${encodeURIComponent(t.session.id)}`}>
              ← {t.dialogue.title ?? i18n.t('turnTrace.dialogue')}
            </Link>{' '}
            · <span class="mono">{t.id}</span>
          </>
        }
        actions={
          <>
            {t.status === 'pending' && <LiveDot state={live} />}
            <DiffPicker turn={t} />
          </>
        }
      />
      <TurnSummary turn={t} names={names} />
      <Panel title={i18n.t('trace.timeline.title')}>
        <Timeline
          startedAt={t.startedAt}
          closedAt={t.closedAt}
          events={parts.events}
          llmIds={parts.llmIds}
          toolIds={parts.toolIds}
        />
      </Panel>
      <Panel title={i18n.t('turnTrace.conversation')}>
        <div class="turn-messages">
          {[...tr.input, ...tr.response].map((m) => (
            <MessageBubble m={m} names={names} />
          ))}
        </div>
      </Panel>
      <ContextPanels contexts={parts.contexts} />
      <CallPanels trace={tr} parts={parts} />
    </>
  );
}
