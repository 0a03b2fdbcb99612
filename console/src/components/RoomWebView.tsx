// A web room as its people see it (issue 37): the conversation through the web channel's API,
// the operator speaking as themself, each member's reply under its name. Polled while open, so a
// round's answers appear one after another; a failure shows in place of the messages.
import { useState } from 'preact/hooks';
import { errorText } from '../lib/api.js';
import { getConversation, postToRoom } from '../lib/chatApi.js';
import { useI18n } from '../lib/i18n.js';
import { useLoaded } from '../lib/loaded.js';
import { useFollowNewest } from '../lib/scroll.js';
import { useCan } from '../lib/viewerContext.js';
import { ChatBubble } from './ChatBubble.js';
import { MessageComposer } from './chat/MessageComposer.js';
import { Empty, ErrorBox, Loading, Panel } from './ui.js';

/** Often enough that a round's answers appear as they come, rarely enough for a phone. */
const POLL_MS = 1500;

export function RoomWebView(p: { conversationId: string; names: Record<string, string> }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const q = useLoaded(() => getConversation(p.conversationId), p.conversationId, { pollMs: POLL_MS });
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const messages = q.data?.messages ?? [];
  const logRef = useFollowNewest<HTMLDivElement>(messages.length + (messages.at(-1)?.content.length ?? 0));
  const waiting = messages.some((m) => m.state === 'streaming');

  const send = async (e: Event) => {
    e.preventDefault();
    const content = text.trim();
    if (!content) return;
    setError(null);
    try {
      await postToRoom(p.conversationId, content);
      setText('');
      await q.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <Panel title={t('room.webView')}>
      <p class="muted small">{t('room.webViewHint')}</p>
      {q.error && !q.data ? (
        <ErrorBox error={q.error} />
      ) : !q.data ? (
        <Loading what={t('room.webView')} />
      ) : (
        <div class="chat-log" data-testid="room-web-log" ref={logRef}>
          {messages.map((m) => (
            <ChatBubble
              role={m.role}
              who={m.agentId ? (p.names[m.agentId] ?? m.agentId) : undefined}
              state={m.state}
              content={m.content}
              sources={m.metadata.sources ?? []}
              at={m.createdAt}
            />
          ))}
          {messages.length === 0 && <Empty>{t('room.webEmpty')}</Empty>}
          {waiting && <p class="muted small">{t('room.webWaiting')}</p>}
        </div>
      )}
      <ErrorBox error={error} />
      {canAct && (
        <MessageComposer
          value={text}
          placeholder={t('room.webPlaceholder')}
          testId="room-web-input"
          onInput={setText}
          onSubmit={(e) => void send(e)}
        >
          <button type="submit" class="primary" disabled={!text.trim()} data-testid="room-web-send">
            {t('common.send')}
          </button>
        </MessageComposer>
      )}
    </Panel>
  );
}
