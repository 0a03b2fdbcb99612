// One turn of a session: its state and timing, its messages, a link to its trace, and a
// checkbox to pick it for a context diff.
import { Link } from '../lib/router.js';
import { formatMs } from '../lib/time.js';
import { nodes, type MessageView, type TurnView } from '../lib/types.js';
import { MessageBubble } from './MessageBubble.js';
import { Badge, StatusBadge, Time, useRoleLabel } from './ui.js';
import { useI18n } from '../lib/i18n.js';

export function TurnCard(p: {
  turn: TurnView;
  live: Record<string, MessageView>;
  names: Record<string, string>;
  picked: boolean;
  onPick: (picked: boolean) => void;
}) {
  const t = p.turn;
  const i18n = useI18n();
  const role = useRoleLabel();
  const messages = nodes(t.messages).map((m) => p.live[m.id] ?? m);
  return (
    <article class="turn" data-testid="turn">
      <div class="turn-head">
        <div class="turn-title">
          <StatusBadge status={t.status} />
          {t.outcome && t.outcome !== 'complete' && <StatusBadge status={t.outcome} />}
          <span class="muted small">
            {p.names[t.initiatorId] ?? role(t.initiatorRole)} → {p.names[t.responderId] ?? role(t.responderRole)}
          </span>
          {t.kind !== 'dialogue' && <Badge tone="plain">{t.kind}</Badge>}
        </div>
        <div class="turn-side">
          <span class="muted small">
            <Time at={t.startedAt} /> · {i18n.t('turn.reply', { ms: formatMs(t.responseTimeMs) })}
          </span>
          <label class="pick" title={i18n.t('turn.pickTip')}>
            <input type="checkbox" checked={p.picked} onChange={(e) => p.onPick(e.currentTarget.checked)} />
            {i18n.t('turn.compare')}
          </label>
          <Link class="button small" href={`/turns/${encodeURIComponent(t.id)}`} data-testid="open-trace">
            {i18n.t('turn.trace')}
          </Link>
        </div>
      </div>
      <div class="turn-messages">
        {messages.map((m) => (
          <MessageBubble m={m} names={p.names} />
        ))}
      </div>
    </article>
  );
}
