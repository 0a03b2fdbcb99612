// One turn of a session: its state and timing, its messages, a link to its trace, and a
// checkbox to pick it for a context diff.
import { Link } from '../lib/router.js';
import { formatMs } from '../lib/time.js';
import { nodes, type MessageView, type TurnView } from '../lib/types.js';
import { MessageBubble } from './MessageBubble.js';
import { Badge, Time } from './ui.js';

export function TurnCard(p: {
  turn: TurnView;
  live: Record<string, MessageView>;
  names: Record<string, string>;
  picked: boolean;
  onPick: (picked: boolean) => void;
}) {
  const t = p.turn;
  const messages = nodes(t.messages).map((m) => p.live[m.id] ?? m);
  return (
    <article class="turn" data-testid="turn">
      <div class="turn-head">
        <div class="turn-title">
          <Badge>{t.status}</Badge>
          {t.outcome && t.outcome !== 'complete' && <Badge>{t.outcome}</Badge>}
          <span class="muted small">
            {p.names[t.initiatorId] ?? t.initiatorRole} → {p.names[t.responderId] ?? t.responderRole}
          </span>
          {t.kind !== 'dialogue' && <Badge tone="plain">{t.kind}</Badge>}
        </div>
        <div class="turn-side">
          <span class="muted small">
            <Time at={t.startedAt} /> · reply {formatMs(t.responseTimeMs)}
          </span>
          <label class="pick" title="Pick two turns to compare their contexts">
            <input type="checkbox" checked={p.picked} onChange={(e) => p.onPick(e.currentTarget.checked)} />
            compare
          </label>
          <Link class="button small" href={`/turns/${encodeURIComponent(t.id)}`} data-testid="open-trace">
            Trace →
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
