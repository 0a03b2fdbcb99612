// The dialogue page's header: title, type and status, chat, people, activity, the live state and
// (for operators) the Markdown export; a group's access (admins set it).
import { gql } from '../../lib/api.js';
import { download } from '../../lib/download.js';
import { graphql } from '../../lib/graphql.js';
import { useI18n } from '../../lib/i18n.js';
import type { LiveState } from '../../lib/live.js';
import { useCan } from '../../lib/viewerContext.js';
import { Badge, LiveDot, PageHeader, StatusBadge, Time } from '../ui.js';
import type { ActionNotice, DialogueView } from './useDialogue.js';
import { ChatAccess, isGroup } from './ChatAccess.js';

const EXPORT = graphql(`
  mutation Export($id: ID!) {
    exportDialogue(dialogueId: $id, format: MARKDOWN) {
      fileName
      mimeType
      content
    }
  }
`);

export function DialogueHeader(p: {
  dialogue: DialogueView;
  live: LiveState;
  act: ActionNotice['act'];
  /** After a change of the dialogue itself (a group's access): read it again. */
  onChanged: () => void;
}) {
  const i18n = useI18n();
  const canAct = useCan('operator');
  const dlg = p.dialogue;
  return (
    <PageHeader
      title={dlg.title ?? i18n.t('dialogue.untitled')}
      sub={
        <>
          <Badge tone="plain">{dlg.type}</Badge> <StatusBadge status={dlg.status} />{' '}
          {i18n.t('dialogue.chat', { platform: dlg.chat.platform })} <span class="mono">{dlg.chat.chatId}</span> ·{' '}
          {i18n.t('dialogue.people', {
            humans: dlg.humans.map((h) => h.displayName).join(', ') || i18n.t('dialogue.noHumans'),
            agents: dlg.agents.map((a) => a.name).join(', '),
          })}{' '}
          · {i18n.t('dialogue.messages', { n: dlg.messageCount })} · {i18n.t('dialogue.lastActive')}{' '}
          <Time at={dlg.lastActivityAt} />
        </>
      }
      actions={
        <>
          {isGroup(dlg.type) && (
            <ChatAccess dialogueId={dlg.id} access={dlg.access} act={p.act} onChanged={p.onChanged} />
          )}
          <LiveDot state={p.live} />
          {canAct && (
            <button
              onClick={() =>
                p.act(async () => {
                  const r = await gql(EXPORT, { id: dlg.id });
                  download(r.exportDialogue.fileName, r.exportDialogue.mimeType, r.exportDialogue.content);
                })
              }
            >
              {i18n.t('dialogue.export')}
            </button>
          )}
        </>
      }
    />
  );
}
