// A chat with any agent over the web channel (the same REST + SSE API web users have): pick or
// start a conversation, send, and watch the answer stream in with its sources and token use.
import { AGENTS } from '../lib/agentList.js';
import { useQuery } from '../lib/hooks.js';
import { nodes } from '../lib/types.js';
import { useFollowNewest } from '../lib/scroll.js';
import { useCan } from '../lib/viewerContext.js';
import { Empty, ErrorBox, PageHeader, Panel, ReadOnlyNote } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { ChatControls } from '../components/chat/ChatControls.js';
import { ConversationList } from '../components/chat/ConversationList.js';
import { ConversationPanel } from '../components/chat/ConversationPanel.js';
import { useChat } from '../components/chat/useChat.js';

export function Chat(p: { id?: string }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const agents = nodes(useQuery(AGENTS).data?.agents);
  const chat = useChat(p.id);
  const { current, reply } = chat;
  const names = Object.fromEntries(agents.map((a) => [a.id, a.name]));
  // Follows new messages and the streaming text as it grows (unless scrolled up to read).
  const logRef = useFollowNewest<HTMLDivElement>(
    `${current?.conversation.id}:${current?.messages.length}:${reply.sentText}:${reply.stream?.content.length}:${reply.stream?.error}`,
  );
  return (
    <>
      <PageHeader
        title={t('chat.title')}
        sub={t('chat.sub')}
        actions={canAct && <ChatControls agents={agents} onStart={(id) => void chat.start(id)} />}
      />
      {!canAct && <ReadOnlyNote needs="operator" />}
      <ErrorBox error={chat.error} />
      <div class="split">
        <ConversationList list={chat.list} openId={p.id} names={names} />
        <div class="main-col">
          {!current ? (
            <Panel>
              <Empty>{t('chat.pick')}</Empty>
            </Panel>
          ) : (
            <ConversationPanel
              open={current}
              reply={reply}
              canAct={canAct}
              logRef={logRef}
              onStop={() => void chat.stop()}
              onDelete={() => void chat.remove()}
            />
          )}
        </div>
      </div>
    </>
  );
}
