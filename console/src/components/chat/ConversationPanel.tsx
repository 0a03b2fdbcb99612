// The open conversation: a way to its dialogue, deleting it, its log and (for operators) the
// box to write in, with Stop while a reply streams.
import type { RefObject } from 'preact';
import { useI18n } from '../../lib/i18n.js';
import { Link } from '../../lib/router.js';
import { Panel } from '../ui.js';
import { ChatLog } from './ChatLog.js';
import { MessageComposer } from './MessageComposer.js';
import type { OpenConversation, Reply } from './useChat.js';

export function ConversationPanel(p: {
  open: OpenConversation;
  reply: Reply;
  canAct: boolean;
  logRef: RefObject<HTMLDivElement | null>;
  onStop: () => void;
  onDelete: () => void;
}) {
  const { t } = useI18n();
  const { conversation, messages } = p.open;
  const { stream } = p.reply;
  return (
    <Panel
      title={conversation.title || t('chat.new')}
      actions={
        <>
          <Link class="button small" href={`/dialogues/${encodeURIComponent(conversation.dialogueId)}`}>
            {t('chat.toDialogue')}
          </Link>
          {p.canAct && (
            <button class="small danger" onClick={p.onDelete}>
              {t('common.delete')}
            </button>
          )}
        </>
      }
    >
      <ChatLog messages={messages} sentText={p.reply.sentText} stream={stream} logRef={p.logRef} />
      {p.canAct && (
        <MessageComposer
          value={p.reply.text}
          placeholder={t('chat.placeholder')}
          testId="chat-input"
          onInput={p.reply.setText}
          onSubmit={(e) => void p.reply.send(e)}
        >
          {stream && !stream.done ? (
            <button type="button" class="danger" onClick={p.onStop}>
              {t('chat.stop')}
            </button>
          ) : (
            <button type="submit" class="primary" disabled={!p.reply.text.trim()} data-testid="chat-send">
              {t('common.send')}
            </button>
          )}
        </MessageComposer>
      )}
    </Panel>
  );
}
