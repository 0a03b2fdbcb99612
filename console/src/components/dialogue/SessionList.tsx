// A dialogue's sessions, newest first, each a link that selects it.
import { useI18n } from '../../lib/i18n.js';
import { Link } from '../../lib/router.js';
import type { SessionSummary } from '../../lib/types.js';
import { Badge, Panel, StatusBadge, Time } from '../ui.js';

export function SessionList(p: { dialogueId: string; sessions: SessionSummary[]; selected: string | undefined }) {
  const i18n = useI18n();
  return (
    <Panel title={i18n.t('dialogue.sessions')} class="side">
      {/* role=list: `list-style: none` makes some screen readers drop the list semantics. */}
      <ul class="session-list" role="list" data-testid="session-list">
        {p.sessions.map((s) => (
          <li class={s.id === p.selected ? 'selected' : ''}>
            <Link
              href={`/dialogues/${encodeURIComponent(p.dialogueId)}?session=${encodeURIComponent(s.id)}`}
              aria-current={s.id === p.selected ? 'true' : undefined}
            >
              <div>
                <StatusBadge status={s.status} /> {s.kind !== 'dialogue' && <Badge tone="plain">{s.kind}</Badge>}
                {s.closeReason && <span class="muted small"> {s.closeReason}</span>}
              </div>
              <div class="small">
                <Time at={s.startedAt} />
              </div>
              <div class="muted small">
                {i18n.t('dialogue.turnsMessages', {
                  turns: s.stats.turnCount,
                  messages: s.stats.messageCount,
                })}
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
