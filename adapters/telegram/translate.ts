// Telegram Update → InboundEvent. Translation only: no rule lives here (SPEC §2).
// The fields we read are validated against the Bot API's shapes (shapes.ts), field by field: a
// message without its essentials is reported and dropped; a bad optional field is dropped alone
// and named in `warnings`.
import type { InboundAttachment, InboundEventInput, InboundMention } from '../../src/ingest/inboundEvent.js';
import { isRecord, parseMessage, type TgChat, type TgEntity, type TgMessage, type TgUser } from './shapes.js';
import { chatTitle, displayName, forwardOf, sharedOf } from './shared.js';

/** Which of our bots received the update (from getMe). */
export interface BotIdentity {
  id: number;
  username?: string;
}

export type TranslateResult =
  /** `warnings`: malformed fields left out (paths only, never values). */
  | { ok: true; event: InboundEventInput; warnings: string[] }
  /** `ignored`: a valid update we do not record (service message, channel post); else malformed. */
  | { ok: false; reason: string; ignored: boolean };

/** Bot API service-message fields: chat events, not something a person said. */
const SERVICE_FIELDS = [
  'new_chat_members',
  'left_chat_member',
  'new_chat_title',
  'new_chat_photo',
  'delete_chat_photo',
  'group_chat_created',
  'supergroup_chat_created',
  'channel_chat_created',
  'message_auto_delete_timer_changed',
  'migrate_to_chat_id',
  'migrate_from_chat_id',
  'pinned_message',
  'forum_topic_created',
  'forum_topic_edited',
  'forum_topic_closed',
  'forum_topic_reopened',
  'general_forum_topic_hidden',
  'general_forum_topic_unhidden',
  'video_chat_scheduled',
  'video_chat_started',
  'video_chat_ended',
  'video_chat_participants_invited',
  'write_access_allowed',
  'users_shared',
  'chat_shared',
  'boost_added',
  'chat_background_set',
  'proximity_alert_triggered',
  'refunded_payment',
  'giveaway_created',
  'giveaway_completed',
  'connected_website',
  'web_app_data',
] as const;

const malformed = (reason: string): TranslateResult => ({
  ok: false,
  reason: `malformed update: ${reason}`,
  ignored: false,
});
const ignored = (reason: string): TranslateResult => ({ ok: false, reason, ignored: true });

/** One Bot API Update (`message`, `edited_message` and Bot API 10's `guest_message` are recorded). */
export function translateUpdate(update: unknown, bot: BotIdentity): TranslateResult {
  if (!isRecord(update) || typeof update.update_id !== 'number') return malformed('update_id missing');
  if (update.message !== undefined) return translateMessage(update.message, bot, 'message');
  if (update.edited_message !== undefined) return translateMessage(update.edited_message, bot, 'edit');
  if (update.guest_message !== undefined) return translateMessage(update.guest_message, bot, 'guest');
  const kind = Object.keys(update).find((k) => k !== 'update_id') ?? 'empty';
  return ignored(`update kind ${kind} is not handled`);
}

/** A Message object: a new message, or (kind 'edit') the new state of an edited one. */
export function translateMessage(
  raw: unknown,
  bot: BotIdentity,
  kind: 'message' | 'edit' | 'guest' = 'message',
): TranslateResult {
  const parsed = parseMessage(raw);
  if (!parsed.ok) return malformed(parsed.reason);
  const { m, dropped: warnings } = parsed;
  if (m.chat.type === 'channel') return ignored('channel posts are not handled');
  const service = SERVICE_FIELDS.find((f) => isRecord(raw) && raw[f] !== undefined);
  if (service) return ignored(`service message (${service})`);
  const sender = senderOf(m);
  if (!sender) return malformed('message has neither from nor sender_chat');

  const body = m.text ?? m.caption;
  const entities = m.text !== undefined ? 'entities' : 'caption_entities';
  const mentions = mentionsOf(body ?? '', m[entities] ?? [], entities, warnings);
  const forwardedFrom = m.forward_origin ? forwardOf(m.forward_origin) : undefined;

  const common = {
    platform: 'telegram' as const,
    chat: {
      chatId: String(m.chat.id),
      // Only forum topics are threads of their own; a reply chain's message_thread_id is not.
      ...(m.is_topic_message && m.message_thread_id !== undefined ? { threadId: String(m.message_thread_id) } : {}),
      kind: m.chat.type === 'private' ? ('private' as const) : ('group' as const),
      ...(m.chat.title ? { title: m.chat.title } : {}),
    },
    platformMessageId: String(m.message_id),
    recipient: { userId: String(bot.id), ...(bot.username ? { username: bot.username } : {}) },
    sender,
    ...(body !== undefined ? { text: body } : {}),
    mentions,
    ...(m.media_group_id ? { mediaGroupId: m.media_group_id } : {}),
    ...nonEmpty(sharedOf(m)),
    ...(forwardedFrom ? { forwardedFrom } : {}),
  };

  if (kind === 'edit') {
    if (m.edit_date === undefined) return malformed('edited_message without edit_date');
    return { ok: true, event: { ...common, kind: 'edit', editedAt: new Date(m.edit_date * 1000) }, warnings };
  }
  const replyTo = replyOf(m);
  return {
    ok: true,
    event: {
      ...common,
      kind: 'message',
      attachments: attachmentsOf(m),
      ...(replyTo ? { replyTo } : {}),
      sentAt: new Date(m.date * 1000),
      // A guest query is answered only through answerGuestQuery, which this gateway does not
      // speak; the bot is not a member of the chat, so it is kept as context.
      ...(kind === 'guest' || m.guest_query_id !== undefined ? { answerable: false } : {}),
    },
    warnings,
  };
}

/** Shared items only when there are some, so plain messages keep their plain shape. */
const nonEmpty = <T>(shared: T[]): { shared?: T[] } => (shared.length > 0 ? { shared } : {});

function senderOf(m: TgMessage) {
  // An anonymous group admin or a linked channel speaks as the chat, not as Telegram's stand-in bot.
  if (m.sender_chat) return { userId: String(m.sender_chat.id), isBot: false, ...chatName(m.sender_chat) };
  if (!m.from) return undefined;
  return {
    userId: String(m.from.id),
    isBot: m.from.is_bot,
    displayName: displayName(m.from),
    ...(m.from.username ? { username: m.from.username } : {}),
    ...(m.from.language_code ? { languageCode: m.from.language_code } : {}),
  };
}

function chatName(c: TgChat): { displayName?: string; username?: string } {
  const title = c.title ?? chatTitle(c);
  return { ...(title ? { displayName: title } : {}), ...(c.username ? { username: c.username } : {}) };
}

/** Entity offsets and lengths count UTF-16 code units, which is how JS strings index. A bad one is left out. */
function mentionsOf(text: string, entities: TgEntity[], field: string, warnings: string[]): InboundMention[] {
  const list: InboundMention[] = [];
  for (const [i, e] of entities.entries()) {
    if (e.type !== 'mention' && e.type !== 'text_mention') continue;
    if (e.offset + e.length > text.length) {
      warnings.push(`${field}[${i}] (${e.type} outside the text)`);
      continue;
    }
    const covered = text.slice(e.offset, e.offset + e.length);
    if (e.type === 'mention') {
      const username = covered.replace(/^@/, '');
      if (username !== '') list.push({ username, text: covered });
    } else if (e.user) {
      list.push({ userId: String(e.user.id), text: covered });
    } else {
      warnings.push(`${field}[${i}] (text_mention without user)`);
    }
  }
  return list;
}

function userSender(u: TgUser) {
  return {
    userId: String(u.id),
    isBot: u.is_bot,
    displayName: displayName(u),
    ...(u.username ? { username: u.username } : {}),
  };
}

function replyOf(m: TgMessage) {
  const quote = m.quote?.text;
  const r = m.reply_to_message;
  // In a forum topic every message "replies" to the topic's opening service message.
  const topicRoot =
    r && (r.forum_topic_created !== undefined || (m.is_topic_message && r.message_id === m.message_thread_id));
  if (r && !topicRoot) {
    const s = r.sender_chat
      ? { userId: String(r.sender_chat.id), isBot: false, ...chatName(r.sender_chat) }
      : r.from
        ? userSender(r.from)
        : undefined;
    const text = r.text ?? r.caption;
    const media = attachmentsOf(r).map((a) => ({ kind: a.kind, ...(a.fileName ? { fileName: a.fileName } : {}) }));
    return {
      platformMessageId: String(r.message_id),
      ...(s ? { sender: s } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(media.length > 0 ? { media } : {}),
      ...(quote !== undefined ? { quote } : {}),
      ...nonEmpty(sharedOf(r)),
    };
  }
  // A reply to a message in another chat: its id means nothing in this chat, so it is qualified
  // with the source chat (never matches a stored message) and carried by its quote.
  const x = m.external_reply;
  if (x && x.message_id !== undefined) {
    const source = x.chat ?? x.origin?.chat ?? x.origin?.sender_chat;
    const u = x.origin?.sender_user;
    return {
      platformMessageId: `${source ? source.id : 'external'}:${x.message_id}`,
      ...(u ? { sender: userSender(u) } : {}),
      ...(quote !== undefined ? { quote, text: quote } : {}),
      ...nonEmpty(sharedOf(x)),
    };
  }
  // A reply to a story: stories are not messages of this chat, so the id is qualified too.
  const story = m.reply_to_story;
  if (story) {
    const from = chatTitle(story.chat);
    return {
      platformMessageId: `story:${story.chat.id}:${story.id}`,
      ...(quote !== undefined ? { quote } : {}),
      shared: [{ kind: 'story' as const, ...(from ? { from } : {}) }],
    };
  }
  return undefined;
}

/** A message's media fields: a message's own, or those of the message it replies to. */
type MediaCarrier = Pick<
  TgMessage,
  'message_id' | 'photo' | 'animation' | 'video' | 'video_note' | 'voice' | 'audio' | 'document' | 'sticker'
>;

function attachmentsOf(m: MediaCarrier): InboundAttachment[] {
  const source = { sourceMessageId: String(m.message_id) };
  const ids = (f: { file_id: string; file_unique_id: string; file_size?: number | undefined }) => ({
    fileRef: f.file_id,
    uniqueId: f.file_unique_id,
    ...(f.file_size !== undefined ? { size: f.file_size } : {}),
  });
  const opt = <K extends string, V>(key: K, v: V | undefined) =>
    v === undefined ? {} : ({ [key]: v } as Record<K, V>);
  const out: InboundAttachment[] = [];
  if (m.photo) {
    // Telegram sends every size it made; the largest carries the most detail for a description.
    const best = m.photo.reduce((a, b) =>
      b.width * b.height > a.width * a.height ||
      (b.width * b.height === a.width * a.height && (b.file_size ?? 0) > (a.file_size ?? 0))
        ? b
        : a,
    );
    out.push({ kind: 'image', ...ids(best), mime: 'image/jpeg', width: best.width, height: best.height, ...source });
  }
  // A GIF also fills `document` for old clients; it is one attachment, described by a frame.
  for (const [kind, v] of [
    ['animation', m.animation],
    ['video', m.video],
  ] as const) {
    if (!v) continue;
    const frame = 'thumbnail' in v ? (v.thumbnail ?? v.thumb) : undefined;
    out.push({
      kind,
      ...ids(v),
      ...opt('fileName', v.file_name),
      ...opt('mime', v.mime_type),
      duration: v.duration,
      width: v.width,
      height: v.height,
      ...opt('frameRef', frame?.file_id),
      ...source,
    });
  }
  if (m.video_note) {
    const v = m.video_note;
    out.push({
      kind: 'video_note',
      ...ids(v),
      mime: 'video/mp4',
      duration: v.duration,
      width: v.length,
      height: v.length,
      ...source,
    });
  }
  if (m.voice)
    out.push({
      kind: 'voice',
      ...ids(m.voice),
      ...opt('mime', m.voice.mime_type),
      duration: m.voice.duration,
      ...source,
    });
  if (m.audio) {
    const a = m.audio;
    out.push({
      kind: 'audio',
      ...ids(a),
      ...opt('fileName', a.file_name),
      ...opt('mime', a.mime_type),
      ...opt('title', a.title),
      ...opt('performer', a.performer),
      duration: a.duration,
      ...source,
    });
  }
  if (m.document && !m.animation) {
    const d = m.document;
    out.push({ kind: 'document', ...ids(d), ...opt('fileName', d.file_name), ...opt('mime', d.mime_type), ...source });
  }
  if (m.sticker) {
    const s = m.sticker;
    const mime = s.is_animated ? 'application/x-tgsticker' : s.is_video ? 'video/webm' : 'image/webp';
    out.push({
      kind: 'sticker',
      ...ids(s),
      mime,
      width: s.width,
      height: s.height,
      ...opt('emoji', s.emoji),
      ...opt('setName', s.set_name),
      ...source,
    });
  }
  return out;
}
