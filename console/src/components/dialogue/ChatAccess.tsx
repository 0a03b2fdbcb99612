// A group's access (SPEC §14) on its dialogue page: allowed (under an allowlist every member may
// talk here), blocked (never answered), or left to the mode. Admins set it; blocking asks first.
import { gql } from '../../lib/api.js';
import { SET_CHAT_ACCESS, type Standing } from '../../lib/accessQueries.js';
import { useI18n } from '../../lib/i18n.js';
import { useCan } from '../../lib/viewerContext.js';
import { StandingBadge, StandingSelect } from '../access/StandingSelect.js';
import type { ActionNotice } from './useDialogue.js';

/** Dialogue types that are group chats, where a chat's standing lets its members in. */
export const isGroup = (type: string): boolean => type === 'group' || type === 'lio_group';

export function ChatAccess(p: {
  dialogueId: string;
  access: Standing;
  act: ActionNotice['act'];
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const canAct = useCan('admin');
  const set = (access: Standing) => {
    if (access === 'BLOCKED' && !confirm(t('access.chat.blockConfirm'))) return;
    void p.act(async () => {
      await gql(SET_CHAT_ACCESS, { dialogueId: p.dialogueId, access });
      p.onChanged();
    });
  };
  return (
    <label class="inline-field" title={t('access.chat.tip')} data-testid="chat-access">
      <span>{t('access.chat.label')}</span>
      <StandingBadge value={p.access} />
      <StandingSelect
        value={p.access}
        label={t('access.chat.label')}
        disabled={!canAct}
        onChange={set}
        testId="chat-access-select"
      />
    </label>
  );
}
