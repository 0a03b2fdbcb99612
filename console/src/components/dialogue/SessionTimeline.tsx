// A session's turns and the messages outside them in time order, live text in place, turns
// pickable for a diff.
import { useI18n } from '../../lib/i18n.js';
import { timeline, withOperator } from '../../lib/dialogueTimeline.js';
import type { MessageView, TurnView } from '../../lib/types.js';
import { JumpToLatest } from '../JumpToLatest.js';
import { MessageBubble } from '../MessageBubble.js';
import { TurnCard } from '../TurnCard.js';

export function SessionTimeline(p: {
  turns: TurnView[];
  loose: MessageView[];
  olderHidden: boolean;
  live: Record<string, MessageView>;
  names: Record<string, string>;
  picked: string[];
  onPick: (turnId: string, on: boolean) => void;
}) {
  const i18n = useI18n();
  const { live, names, picked } = p;
  return (
    <div class="turns">
      {p.olderHidden && <div class="muted small">{i18n.t('dialogue.olderHidden')}</div>}
      {timeline(p.turns, p.loose, p.olderHidden).map((e) =>
        e.turn ? (
          <TurnCard
            key={e.turn.id}
            turn={e.turn}
            live={live}
            names={names}
            picked={picked.includes(e.turn.id)}
            onPick={(on) => p.onPick(e.turn.id, on)}
          />
        ) : (
          <div class="loose-message" data-testid="loose-message" key={e.message.id}>
            <MessageBubble
              m={live[e.message.id] ?? e.message}
              names={withOperator(names, e.message, (name) => i18n.t('dialogue.operator', { name }))}
            />
          </div>
        ),
      )}
      <JumpToLatest />
    </div>
  );
}
