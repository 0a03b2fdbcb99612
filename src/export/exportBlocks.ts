// A dialogue transcript as a flat list of typed blocks (title, session headings, each message's
// sender line, text, quote, media and marks), shared by the Markdown and the PDF renderers so both
// say the same thing. Times are shown in the configured time zone (storage is UTC). Pure.
import type { ChatRef, DialogueType, Message, Role, Session } from '../domain/model.js';
import { quoteBody, renderAttachment } from '../transcript/renderMessage.js';

export type Block =
  | { kind: 'title'; text: string }
  /** Lines of facts under the title or a session heading. */
  | { kind: 'meta'; lines: string[] }
  | { kind: 'session'; text: string }
  /** Who said it and when. */
  | { kind: 'sender'; text: string }
  /** The message text as written (Markdown for AI replies). */
  | { kind: 'body'; text: string }
  | { kind: 'quote'; text: string }
  /** A media item in words: image description, transcription, document text. */
  | { kind: 'media'; text: string }
  /** Edited, deleted, refused, undelivered: one short line each. */
  | { kind: 'mark'; text: string };

export interface ExportHeader {
  dialogueId: string;
  title?: string | undefined;
  type: DialogueType;
  chat: ChatRef;
  participants: Array<{ role: Role; id: string; name: string }>;
  createdAt: Date;
  exportedAt: Date;
  timezone: string;
  messageCount: number;
  sessionCount: number;
}

export interface RenderContext {
  timezone: string;
  /** Display names of the dialogue's humans and agents by id. */
  names: ReadonlyMap<string, string>;
}

/** `2026-04-01 17:00:05` in `timeZone`; one formatter per call site, since building one is slow. */
export function timeFormatter(timeZone: string): (d: Date) => string {
  const f = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (d) => f.format(d);
}

const ROLE_LABEL: Record<Role, string> = { human: 'human', ai: 'AI', system: 'system' };

export function headerBlocks(h: ExportHeader): Block[] {
  const time = timeFormatter(h.timezone);
  const where = `${h.chat.platform} chat ${h.chat.chatId}${h.chat.threadId ? `, thread ${h.chat.threadId}` : ''}`;
  const people = h.participants.map((p) => `${p.name} (${ROLE_LABEL[p.role]})`).join(', ');
  return [
    { kind: 'title', text: h.title?.trim() || `Dialogue ${h.dialogueId}` },
    {
      kind: 'meta',
      lines: [
        `Dialogue: ${h.dialogueId} (${h.type}, ${where})`,
        `Participants: ${people || 'none recorded'}`,
        `Started: ${time(h.createdAt)}`,
        `Messages: ${h.messageCount} in ${h.sessionCount} session${h.sessionCount === 1 ? '' : 's'}`,
        `Exported: ${time(h.exportedAt)} — times in ${h.timezone}`,
      ],
    },
  ];
}

/** `number` is the session's place among all the dialogue's sessions (1 = first). */
export function sessionBlocks(
  s: Session | undefined,
  sessionId: string,
  number: number | undefined,
  ctx: RenderContext,
  time = timeFormatter(ctx.timezone),
): Block[] {
  if (!s)
    return [
      { kind: 'session', text: `Session ${sessionId}` },
      { kind: 'meta', lines: ['(the session record is missing)'] },
    ];
  const kind = s.kind === 'self_reflection' ? 'Self-reflection session' : 'Session';
  const end = s.endedAt ? time(s.endedAt) : 'open';
  const lines = [`${time(s.startedAt)} – ${end}${s.closeReason ? ` (closed: ${s.closeReason})` : ''}`, `Id: ${s._id}`];
  if (s.archived) lines.push('Archived: its messages are kept in the archive (BR-002)');
  if (s.summary) lines.push(`Summary: ${oneLine(s.summary)}`);
  return [
    { kind: 'session', text: `${kind} ${number ?? '?'}` },
    { kind: 'meta', lines },
  ];
}

const oneLine = (t: string) => t.trim().replace(/\s*\n\s*/g, ' ');

/** Who a message is from, as a reader knows them. */
export function senderLabel(m: Pick<Message, 'senderRole' | 'senderId' | 'contentMeta'>, ctx: RenderContext): string {
  if (m.senderRole === 'system')
    return m.senderId.startsWith('operator:') ? `Operator ${m.senderId.slice('operator:'.length)}` : 'System';
  // A human's name as it was when they wrote (groups); else the participant's current name.
  return (m.senderRole === 'human' ? m.contentMeta?.senderName : undefined) ?? ctx.names.get(m.senderId) ?? m.senderId;
}

const MEDIA_TYPES = new Set(['image', 'audio', 'file']);

export function messageBlocks(m: Message, ctx: RenderContext, time = timeFormatter(ctx.timezone)): Block[] {
  const out: Block[] = [
    { kind: 'sender', text: `${senderLabel(m, ctx)} (${ROLE_LABEL[m.senderRole]}) · ${time(m.createdAt)}` },
  ];
  const q = m.contentMeta?.quote;
  if (q) {
    const who =
      q.senderName ??
      (q.senderId ? ctx.names.get(q.senderId) : undefined) ??
      (q.senderRole === 'ai' ? 'the AI' : 'someone');
    out.push({
      kind: 'quote',
      text: `${q.partial ? 'Quoting part of' : 'Replying to'} ${who}:\n${quoteBody(q).join('\n')}`,
    });
  }
  const attachments = m.contentMeta?.attachments ?? [];
  for (const a of attachments) out.push({ kind: 'media', text: renderAttachment(a) });
  if (attachments.length === 0 && MEDIA_TYPES.has(m.contentType)) {
    const meta = m.contentMeta;
    out.push({ kind: 'media', text: `[${m.contentType}${meta?.mime ? `, ${meta.mime}` : ''}]` });
    if (meta?.transcription?.trim()) out.push({ kind: 'media', text: `[transcribed: "${meta.transcription.trim()}"]` });
    if (meta?.caption?.trim() && meta.caption.trim() !== m.content.trim())
      out.push({ kind: 'media', text: `[caption: ${meta.caption.trim()}]` });
  }
  if (m.content.trim()) out.push({ kind: 'body', text: m.content });
  if (m.contentType === 'command') out.push({ kind: 'mark', text: 'command to the gateway' });
  for (const e of m.edits ?? [])
    out.push({ kind: 'mark', text: `edited ${time(e.editedAt)}; before: "${oneLine(e.content)}"` });
  if (m.deleted) out.push({ kind: 'mark', text: `deleted on the platform ${time(m.deleted.at)}` });
  if (m.rejected) out.push({ kind: 'mark', text: `refused (${m.rejected.code}); not answered` });
  const d = m.delivery;
  if (d && d.state !== 'complete')
    out.push({ kind: 'mark', text: `delivery: ${d.state}${d.error ? ` (${d.error.code})` : ''}` });
  return out;
}

/**
 * Blocks for a time-ordered message stream: a session section opens whenever the session
 * changes (sessions are numbered by their start among all the dialogue's sessions).
 */
export class TranscriptBlocks {
  private current: string | undefined;
  private readonly time: (d: Date) => string;
  private readonly sessions: Map<string, { s: Session; n: number }>;

  constructor(
    sessions: readonly Session[],
    private readonly ctx: RenderContext,
  ) {
    this.time = timeFormatter(ctx.timezone);
    const ordered = [...sessions].sort(
      (a, b) => a.startedAt.getTime() - b.startedAt.getTime() || (a._id < b._id ? -1 : 1),
    );
    this.sessions = new Map(ordered.map((s, i) => [s._id, { s, n: i + 1 }]));
  }

  of(m: Message): Block[] {
    const out: Block[] = [];
    if (m.sessionId !== this.current) {
      const hit = this.sessions.get(m.sessionId);
      out.push(...sessionBlocks(hit?.s, m.sessionId, hit?.n, this.ctx, this.time));
      this.current = m.sessionId;
    }
    out.push(...messageBlocks(m, this.ctx, this.time));
    return out;
  }
}
