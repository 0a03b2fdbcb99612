// A chat with any agent over the web channel (the same REST + SSE API web users have): pick or
// start a conversation, send, and watch the answer stream in with its sources and token use.
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../lib/api.js';
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
import { useQuery } from '../lib/hooks.js';
import { isSendEnter } from '../lib/keys.js';
import { useFollowNewest } from '../lib/scroll.js';
import { Link, navigate } from '../lib/router.js';
import { useCan } from '../lib/viewerContext.js';
import { nodes, type Conn, type Named } from '../lib/types.js';
import { Badge, Empty, ErrorBox, PageHeader, Panel, ReadOnlyNote, Select, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { Markdown } from '../components/Markdown.js';

const AGENTS = `query Agents { agents(first: 100) { edges { node { id name } } } }`;

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
  const agents = nodes(useQuery<{ agents: Conn<Named> }>(AGENTS).data?.agents);
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
        else if (ev.event === 'error') s.error = `${ev.message} (${ev.code})`;
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
    if (!current || !confirm('Delete this conversation and everything learnt in it?')) return;
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

/** A reply that did not complete: shown as such, not like a normal answer. */
const FAILED_STATES = new Set(['error', 'interrupted', 'timeout', 'failed', 'rejected']);

function ChatBubble(p: {
  role: string;
  /** The message's state from the web API (adapters/web): streaming, complete, error… */
  state: string;
  content: string;
  sources: SourceRef[];
  usage?: { inputTokens?: number; outputTokens?: number } | undefined;
  at?: string;
  error?: string | undefined;
}) {
  const { t } = useI18n();
  const streaming = p.state === 'streaming';
  const failed = FAILED_STATES.has(p.state);
  return (
    <div
      class={`bubble ${p.role === 'user' ? 'human' : p.role === 'assistant' ? 'ai' : 'system'}${failed ? ' failed' : ''}`}
      data-testid={`chat-${p.role}`}
      data-state={p.state}
    >
      <div class="bubble-meta">
        <span class="who">{p.role}</span>
        {p.at && <Time at={p.at} />}
        {streaming && <Badge tone="info">streaming</Badge>}
        {p.state !== 'complete' && !streaming && (
          <Badge tone={failed ? 'bad' : 'warn'}>{failed ? `failed: ${p.state}` : p.state}</Badge>
        )}
        {p.usage && (
          <span class="muted small">
            {t('chat.tokens', { in: p.usage.inputTokens ?? '?', out: p.usage.outputTokens ?? '?' })}
          </span>
        )}
      </div>
      {p.content ? (
        <Markdown class="bubble-text" text={p.content} />
      ) : (
        <div class="bubble-text">{streaming ? <span class="muted">…</span> : ''}</div>
      )}
      {p.error && <div class="bubble-error">{p.error}</div>}
      {p.sources.length > 0 && (
        <ol class="sources">
          {p.sources.map((s) => (
            <li title={s.content}>
              <strong>{s.documentName}</strong> <span class="muted small">relevance {s.relevanceScore.toFixed(2)}</span>
              <div class="small muted clamp">{s.content}</div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
