// The chat page's state: the conversation list, the open conversation, the reply streaming into
// it and the one error shown; and the actions (start, send, stop, delete) that change them.
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../../lib/api.js';
import {
  abortReply,
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  sendMessage,
  type ChatMessage,
  type Conversation,
} from '../../lib/chatApi.js';
import { STREAM_START, withEvent, type Streaming } from '../../lib/chatStream.js';
import { useI18n } from '../../lib/i18n.js';
import { navigate } from '../../lib/router.js';

export interface OpenConversation {
  conversation: Conversation;
  messages: ChatMessage[];
}

/** The conversations, the one at `id`, and starting, stopping and deleting; `reply` sends. */
export function useChat(id: string | undefined) {
  const { t } = useI18n();
  const [list, setList] = useState<Conversation[]>([]);
  const [current, setCurrent] = useState<OpenConversation | null>(null);
  const [error, setError] = useState<unknown>();
  const attempt = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      setError(e);
    }
  };
  const refreshList = () => attempt(async () => setList(await listConversations()));
  const open = (cid: string) => attempt(async () => setCurrent(await getConversation(cid)));
  const reply = useReply(current, setError, open, refreshList);
  useEffect(() => void refreshList(), []);
  useEffect(() => {
    reply.reset();
    if (id) void open(id);
    else setCurrent(null);
  }, [id]);

  const start = async (agentId: string) => {
    setError(undefined);
    await attempt(async () => {
      const c = await createConversation(agentId || undefined);
      await refreshList();
      navigate(`/chat/${encodeURIComponent(c.id)}`);
    });
  };
  const stop = async () => {
    if (current) await attempt(() => abortReply(current.conversation.id));
  };
  const remove = async () => {
    if (!current || !confirm(t('chat.deleteConfirm'))) return;
    await attempt(async () => {
      await deleteConversation(current.conversation.id);
      await refreshList();
      navigate('/chat');
    });
  };
  return { list, current, error, reply, start, stop, remove };
}

/** The text being typed, the text just sent and the reply streaming back. */
function useReply(
  current: OpenConversation | null,
  setError: (e: unknown) => void,
  reopen: (id: string) => Promise<void>,
  refreshList: () => Promise<void>,
) {
  const [text, setText] = useState('');
  const [sentText, setSentText] = useState<string | null>(null);
  const [stream, setStream] = useState<Streaming | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const reset = () => {
    setStream(null);
    setSentText(null);
  };
  const send = async (e: Event) => {
    e.preventDefault();
    if (!current || !text.trim() || stream?.done === false) return;
    const content = text;
    setText('');
    setError(undefined);
    setSentText(content);
    let s = STREAM_START;
    setStream(s);
    const ctl = new AbortController();
    abort.current = ctl;
    try {
      for await (const ev of sendMessage(current.conversation.id, content, ctl.signal))
        setStream((s = withEvent(s, ev)));
    } catch (err) {
      if (!ctl.signal.aborted) s = { ...s, error: errorText(err) };
    }
    setStream({ ...s, done: true });
    // The stored record is the truth: reload it (the streamed text stays until it arrives).
    await reopen(current.conversation.id);
    reset();
    void refreshList();
  };
  return { text, setText, sentText, stream, send, reset };
}

export type Reply = ReturnType<typeof useReply>;
