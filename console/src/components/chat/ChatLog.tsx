// A conversation's messages, then the text just sent and the reply streaming back.
import type { RefObject } from 'preact';
import type { ChatMessage } from '../../lib/chatApi.js';
import type { Streaming } from '../../lib/chatStream.js';
import { useI18n } from '../../lib/i18n.js';
import { ChatBubble } from '../ChatBubble.js';
import { Empty } from '../ui.js';

export function ChatLog(p: {
  messages: ChatMessage[];
  sentText: string | null;
  stream: Streaming | null;
  logRef: RefObject<HTMLDivElement | null>;
}) {
  const { t } = useI18n();
  const { stream } = p;
  return (
    <div class="chat-log" data-testid="chat-log" ref={p.logRef}>
      {p.messages.map((m) => (
        <ChatBubble
          role={m.role}
          state={m.state}
          content={m.content}
          sources={m.metadata.sources ?? []}
          usage={m.metadata.tokensUsed}
          at={m.createdAt}
        />
      ))}
      {p.sentText !== null && <ChatBubble role="user" state="complete" content={p.sentText} sources={[]} />}
      {stream && (
        <ChatBubble
          role="assistant"
          content={stream.content}
          sources={stream.sources}
          usage={stream.usage}
          state={stream.error ? 'error' : stream.done ? 'complete' : 'streaming'}
          error={stream.error}
        />
      )}
      {p.messages.length === 0 && !stream && <Empty>{t('chat.sayHello')}</Empty>}
    </div>
  );
}
