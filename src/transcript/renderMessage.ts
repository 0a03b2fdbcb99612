// Seed 000's MultiModalInputParser, as one module: every message becomes the text the model
// reads. Images read as their description, voice as its transcription, documents as their
// text, quotes with their source, group messages with their sender. Media whose processing
// failed or is still running get a clear placeholder — never an empty line. An operator's post
// reads as the operator's, in the prompt's language. Pure.
import type { Attachment, Message, Quote, QuotedMedia } from '../domain/model.js';
import { isOperatorPost } from '../domain/conversation.js';
import type { PromptLanguage } from '../tone/templates.js';

export interface RenderOptions {
  /** Group chats prefix human messages with the sender's name so the model knows who spoke. */
  groupChat: boolean;
  /** Name the model's own earlier messages go by in quotes. */
  agentName: string;
  /** The speaking agent (whose viewpoint this is); absent: every AI message is its own. */
  selfId?: string;
  /**
   * Names of the other agents in the chat, by id: their messages read as a named participant's.
   * Without `selfId` (summaries: no one's viewpoint) it names every agent.
   */
  agentNames?: Readonly<Record<string, string>>;
  /** Language of the prompt's own words (the operator's label); English by default. */
  lang?: PromptLanguage;
}

/** Whether an AI message (or a quote of one) is the speaking agent's own. */
export const isOwnMessage = (
  m: { senderRole?: string; senderId?: string },
  o: Pick<RenderOptions, 'selfId'>,
): boolean => m.senderRole === 'ai' && (o.selfId === undefined || m.senderId === o.selfId);

/** Another agent as the speaking one calls it. */
const otherAgentName = (id: string | undefined, o: RenderOptions, stored?: string): string =>
  (id ? o.agentNames?.[id] : undefined) ?? stored ?? 'another AI';

/**
 * An AI sender that `agentNames` does not name: the speaking agent's own message? Without a
 * viewpoint (summaries) `agentNames` lists every agent, so one it lacks is nobody's own.
 */
const ownUnnamed = (senderId: string | undefined, o: RenderOptions): boolean =>
  o.selfId !== undefined ? senderId === o.selfId : o.agentNames === undefined;

/** The name of the agent that wrote an AI message (summaries name every speaker). */
export function aiSpeakerName(m: Pick<Message, 'senderId' | 'contentMeta'>, o: RenderOptions): string {
  return (
    o.agentNames?.[m.senderId] ??
    (ownUnnamed(m.senderId, o) ? o.agentName : (m.contentMeta?.senderName ?? 'another AI'))
  );
}

/** The mark an operator's post carries, so no agent takes it for a participant's words. */
export const OPERATOR_LABEL: Record<PromptLanguage, string> = { en: '[Operator]', zh: '[运营者]' };

const seconds = (d: number | undefined) => (d === undefined ? '' : `, ${Math.round(d)} s`);

function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const LABEL: Record<Attachment['kind'], string> = {
  image: 'Image',
  animation: 'GIF',
  sticker: 'Sticker',
  voice: 'Voice message',
  audio: 'Audio',
  video_note: 'Video message',
  video: 'Video',
  document: 'File',
};

/** Kinds a person sees by a name; voice messages, video messages and photos have none to show. */
const NAMED = new Set<Attachment['kind']>(['audio', 'video', 'animation']);

/** What a person sees a file called: a track's "performer – title" when tagged, else its file name. */
function nameOf(a: Attachment): string {
  if (!NAMED.has(a.kind)) return '';
  const track = [a.performer, a.title].filter((s) => s?.trim()).join(' – ');
  const name = track || a.fileName;
  return name ? ` "${name}"` : '';
}

/** One attachment as a bracketed sentence the model can read. */
export function renderAttachment(a: Attachment): string {
  const p = a.processing;
  const label = LABEL[a.kind];
  if (a.kind === 'sticker')
    return `[${label}${a.stickerName ? ` "${a.stickerName}"` : ''}${a.emoji ? ` ${a.emoji}` : ''}${a.setName ? ` from "${a.setName}"` : ''}${p.text && p.via !== 'sticker' ? `: ${p.text}` : ''}]`;
  if (a.kind === 'document') {
    const head = `${label} "${a.fileName ?? 'unnamed'}"${a.mime || a.size !== undefined ? ` (${[a.mime, size(a.size)].filter(Boolean).join(', ')})` : ''}`;
    if (p.state === 'done') return `[${head}, its text:\n${p.text ?? ''}\n]`;
    if (p.state === 'unsupported') return `[${head} — its contents cannot be read here]`;
    if (p.state === 'failed')
      return `[${head} — reading it failed (${p.error?.code ?? 'error'}); its contents are unknown]`;
    return `[${head} — still being read; its contents are not known yet]`;
  }
  const audible = a.kind !== 'image' && a.kind !== 'animation';
  const head = `${label}${nameOf(a)}${audible ? seconds(a.duration) : ''}`;
  if (p.state === 'done') {
    if (!audible) return `[${head}: ${p.text ?? ''}]`;
    return p.text?.trim() ? `[${head}, transcribed: "${p.text.trim()}"]` : `[${head} with no recognisable speech]`;
  }
  const what = audible ? 'transcription' : 'description';
  if (p.state === 'unsupported')
    return `[${head} — too large or of a kind that cannot be ${audible ? 'transcribed' : 'viewed'} (${p.error?.code ?? 'unsupported'})]`;
  if (p.state === 'failed')
    return `[${head} — ${what} failed (${p.error?.code ?? 'error'}); its content is unknown, say so if it matters]`;
  return `[${head} — ${what} not ready yet]`;
}

/** One attachment of a quoted message: `[Video "1.mp4"]`, with what it showed or said when known. */
const quotedMedia = (m: QuotedMedia): string =>
  `[${LABEL[m.kind]}${m.fileName ? ` "${m.fileName}"` : ''}${m.text ? `: ${m.text}` : ''}]`;

/** What a quoted message holds, line by line: its media, then its text; never an empty quote. */
export function quoteBody(q: Quote): string[] {
  const lines = [...(q.media ?? []).map(quotedMedia), ...(q.text.trim() ? q.text.trim().split('\n') : [])];
  return lines.length > 0 ? lines : ['(a message without text)'];
}

function renderQuote(q: Quote, o: RenderOptions): string {
  const named = q.senderRole === 'ai' && q.senderId ? o.agentNames?.[q.senderId] : undefined;
  const who =
    named ??
    (q.senderRole === 'ai'
      ? ownUnnamed(q.senderId, o)
        ? `${o.agentName} (you)`
        : (q.senderName ?? 'another AI')
      : q.senderId !== undefined && isOperatorPost({ senderRole: q.senderRole ?? 'human', senderId: q.senderId })
        ? OPERATOR_LABEL[o.lang ?? 'en']
        : (q.senderName ?? 'someone'));
  return `> ${q.partial ? 'Quoting part of' : 'Replying to'} ${who}:\n> ${quoteBody(q).join('\n> ')}`;
}

/** The text of one stored message as the model reads it. */
export function renderMessage(m: Message, o: RenderOptions): string {
  if (isOperatorPost(m)) return `${OPERATOR_LABEL[o.lang ?? 'en']} ${m.content}`;
  if (m.senderRole !== 'human')
    return isOwnMessage(m, o) ? m.content : `${otherAgentName(m.senderId, o, m.contentMeta?.senderName)}: ${m.content}`;
  const parts: string[] = [];
  const quote = m.contentMeta?.quote;
  if (quote) parts.push(renderQuote(quote, o));
  for (const a of m.contentMeta?.attachments ?? []) parts.push(renderAttachment(a));
  if (m.content.trim()) parts.push(m.content);
  if (parts.length === 0) parts.push('[an empty message]');
  const body = parts.join('\n');
  const name = m.contentMeta?.senderName;
  return o.groupChat && name ? `${name}: ${body}` : body;
}
