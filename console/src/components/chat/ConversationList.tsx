// The operator's web conversations, newest activity shown, the open one marked.
import type { Conversation } from '../../lib/chatApi.js';
import { useI18n } from '../../lib/i18n.js';
import { Link } from '../../lib/router.js';
import { Empty, Panel, Time } from '../ui.js';

export function ConversationList(p: { list: Conversation[]; openId?: string; names: Record<string, string> }) {
  const { t } = useI18n();
  return (
    <Panel title={t('chat.conversations')} class="side">
      {p.list.length === 0 ? (
        <Empty>{t('common.noneYet')}</Empty>
      ) : (
        <ul class="session-list" role="list">
          {p.list.map((c) => (
            <li class={c.id === p.openId ? 'selected' : ''}>
              <Link href={`/chat/${encodeURIComponent(c.id)}`} aria-current={c.id === p.openId ? 'page' : undefined}>
                <div class="strong">{c.title || t('chat.new')}</div>
                <div class="muted small">
                  {p.names[c.assistantId] ?? c.assistantId} · {t('chat.messageCount', { n: c.messageCount })}
                </div>
                <div class="muted small">
                  <Time at={c.lastMessageAt} relative />
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
