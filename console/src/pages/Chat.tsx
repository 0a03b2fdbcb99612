// A chat with any agent over the web channel (the same REST + SSE API web users have): pick or
// start a conversation, send, and watch the answer stream in with its sources and token use.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorText } from '../lib/api.js';
import {
  abortReply,
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  sendMessage,
  type ChatMessage,
  type Conversation,
  type SourceRef,
} from '../lib/chatApi.js';
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { isSendEnter } from '../lib/keys.js';
import { useFollowNewest } from '../lib/scroll.js';
import { Link, navigate } from '../lib/router.js';
import { useCan } from '../lib/viewerContext.js';
import { nodes } from '../lib/types.js';
import { Empty, ErrorBox, PageHeader, Panel, ReadOnlyNote, Select, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { ChatBubble } from '../components/ChatBubble.js';

const AGENTS = graphql(`
  query Agents {
    agents(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

interface Streaming {
  content: string;
  sources: SourceRef[];
  usage?: { inputTokens?: number; outputTokens?: number };
  error?: string;
  done: boolean;
}

export function Chat(p: { id?: string }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const agents = nodes(useQuery(AGENTS).data?.agents);
  const [agentId, setAgentId] = useState('');
  const [list, setList] = useState<Conversation[]>([]);
  const [current, setCurrent] = useState<{ conversation: Conversation; messages: ChatMessage[] } | null>(null);
  const [text, setText] = useState('');
  const [sentText, setSentText] = useState<string | null>(null);
  const [stream, setStream] = useState<Streaming | null>(null);
  const [error, setError] = useState<unknown>();
  const abort = useRef<AbortController | null>(null);
  const names = Object.fromEntries(agents.map((a) => [a.id, a.name]));
  // Follows new messages and the streaming text as it grows (unless scrolled up to read).
  const logRef = useFollowNewest<HTMLDivElement>(
    `${current?.conversation.id}:${current?.messages.length}:${sentText}:${stream?.content.length}:${stream?.error}`,
  );

  const refreshList = async () => {
    try {
      setList(await listConversations());
    } catch (e) {
      setError(e);
    }
  };
  const open = async (id: string) => {
    try {
      setCurrent(await getConversation(id));
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => void refreshList(), []);
  useEffect(() => {
    setStream(null);
    setSentText(null);
    if (p.id) void open(p.id);
    else setCurrent(null);
  }, [p.id]);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    setError(undefined);
    try {
      const c = await createConversation(agentId || undefined);
      await refreshList();
      navigate(`/chat/${encodeURIComponent(c.id)}`);
    } catch (e) {
      setError(e);
    }
  };

  const send = async (e: Event) => {
    e.preventDefault();
    if (!current || !text.trim() || stream?.done === false) return;
    const content = text;
    setText('');
    setError(undefined);
    setSentText(content);
    const s: Streaming = { content: '', sources: [], done: false };
    setStream({ ...s });
    const ctl = new AbortController();
    abort.current = ctl;
    try {
      for await (const ev of sendMessage(current.conversation.id, content, ctl.signal)) {
        if (ev.event === 'content_delta') s.content += ev.delta;
        else if (ev.event === 'source_reference') s.sources.push(ev.source);
        else if (ev.event === 'message_complete') s.usage = ev.usage;
        else if (ev.event === 'error') s.error = errorText(new ApiError(ev.message, ev.code, 0));
        setStream({ ...s });
      }
    } catch (err) {
      if (!ctl.signal.aborted) s.error = errorText(err);
    }
    s.done = true;
    setStream({ ...s });
    // The stored record is the truth: reload it (the streamed text stays until it arrives).
    await open(current.conversation.id);
    setStream(null);
    setSentText(null);
    void refreshList();
  };

  const stop = async () => {
    if (!current) return;
    try {
      await abortReply(current.conversation.id);
    } catch (err) {
      setError(err);
    }
  };

  const remove = async () => {
    if (!current || !confirm(t('chat.deleteConfirm'))) return;
    try {
      await deleteConversation(current.conversation.id);
      await refreshList();
      navigate('/chat');
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <PageHeader
        title={t('chat.title')}
        sub={t('chat.sub')}
        actions={
          canAct && (
            <>
              <Select
                label={t('th.agent')}
                value={agentId}
                options={[
                  { value: '', label: t('chat.defaultAgent') },
                  ...agents.map((a) => ({ value: a.id, label: a.name })),
                ]}
                onChange={setAgentId}
                testId="chat-agent"
              />
              <button class="primary" onClick={start} data-testid="chat-new">
                {t('chat.new')}
              </button>
            </>
          )
        }
      />
      {!canAct && <ReadOnlyNote needs="operator" />}
      <ErrorBox error={error} />
      <div class="split">
        <Panel title={t('chat.conversations')} class="side">
          {list.length === 0 ? (
            <Empty>{t('common.noneYet')}</Empty>
          ) : (
            <ul class="session-list" role="list">
              {list.map((c) => (
                <li class={c.id === p.id ? 'selected' : ''}>
                  <Link href={`/chat/${encodeURIComponent(c.id)}`} aria-current={c.id === p.id ? 'page' : undefined}>
                    <div class="strong">{c.title || t('chat.new')}</div>
                    <div class="muted small">
                      {names[c.assistantId] ?? c.assistantId} · {t('chat.messageCount', { n: c.messageCount })}
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
        <div class="main-col">
          {!current ? (
            <Panel>
              <Empty>{t('chat.pick')}</Empty>
            </Panel>
          ) : (
            <Panel
              title={current.conversation.title || t('chat.new')}
              actions={
                <>
                  <Link class="button small" href={`/dialogues/${encodeURIComponent(current.conversation.dialogueId)}`}>
                    {t('chat.toDialogue')}
                  </Link>
                  {canAct && (
                    <button class="small danger" onClick={remove}>
                      {t('common.delete')}
                    </button>
                  )}
                </>
              }
            >
              <div class="chat-log" data-testid="chat-log" ref={logRef}>
                {current.messages.map((m) => (
                  <ChatBubble
                    role={m.role}
                    state={m.state}
                    content={m.content}
                    sources={m.metadata.sources ?? []}
                    usage={m.metadata.tokensUsed}
                    at={m.createdAt}
                  />
                ))}
                {sentText !== null && <ChatBubble role="user" state="complete" content={sentText} sources={[]} />}
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
                {current.messages.length === 0 && !stream && <Empty>{t('chat.sayHello')}</Empty>}
              </div>
              {canAct && (
                <form class="chat-input" onSubmit={send}>
                  <textarea
                    rows={2}
                    placeholder={t('chat.placeholder')}
                    value={text}
                    data-testid="chat-input"
                    onInput={(e) => setText(e.currentTarget.value)}
                    onKeyDown={(e) => {
                      if (isSendEnter(e)) {
                        e.preventDefault();
                        e.currentTarget.form?.requestSubmit();
                      }
                    }}
                  />
                  {stream && !stream.done ? (
                    <button type="button" class="danger" onClick={stop}>
                      {t('chat.stop')}
                    </button>
                  ) : (
                    <button type="submit" class="primary" disabled={!text.trim()} data-testid="chat-send">
                      {t('common.send')}
                    </button>
                  )}
                </form>
              )}
            </Panel>
          )}
        </div>
      </div>
    </>
  );
}
