// Why a component: the dialogues' table (title, type, chat, people, activity; a row opens it) is its own view.
import { Link, navigate } from '../../lib/router.js';
import { useI18n } from '../../lib/i18n.js';
import { Badge, StatusBadge, Time } from '../ui.js';
import type { DialogueRow } from './useDialogues.js';

export function DialogueTable(p: { list: DialogueRow[] }) {
  const { t } = useI18n();
  return (
    <table class="table stack" data-testid="dialogue-list">
      <thead>
        <tr>
          <th scope="col">{t('th.dialogue')}</th>
          <th scope="col">{t('th.type')}</th>
          <th scope="col">{t('th.platformChat')}</th>
          <th scope="col">{t('th.people')}</th>
          <th scope="col">{t('th.agents')}</th>
          <th scope="col" class="num">
            {t('th.messages')}
          </th>
          <th scope="col">{t('th.lastActivity')}</th>
        </tr>
      </thead>
      <tbody>
        {p.list.map((d) => (
          <tr class="clickable" onClick={() => navigate(`/dialogues/${encodeURIComponent(d.id)}`)}>
            <td data-label={t('th.dialogue')}>
              <Link href={`/dialogues/${encodeURIComponent(d.id)}`} class="strong">
                {d.title ?? <span class="muted">{t('common.untitled')}</span>}
              </Link>
              <div class="muted mono small">{d.id}</div>
            </td>
            <td data-label={t('th.type')}>
              <Badge tone="plain">{d.type}</Badge> {d.status !== 'active' && <StatusBadge status={d.status} />}
            </td>
            <td data-label={t('th.platformChat')}>
              {d.chat.platform} <span class="muted mono small">{d.chat.chatId}</span>
            </td>
            <td data-label={t('th.people')}>
              {d.humans.map((h) => h.displayName).join(', ') || <span class="muted">—</span>}
            </td>
            <td data-label={t('th.agents')}>{d.agents.map((a) => a.name).join(', ')}</td>
            <td data-label={t('th.messages')} class="num">
              {d.messageCount}
            </td>
            <td data-label={t('th.lastActivity')}>
              <Time at={d.lastActivityAt} relative />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
