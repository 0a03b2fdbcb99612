// Telegram Update → InboundEvent. Translation only: no rule lives here (SPEC §2).
// The fields we read are validated against the Bot API's shapes (core.telegram.org/bots/api),
// so a malformed update is reported and dropped, never half-stored.
import { z } from 'zod';
import type { InboundAttachment, InboundEventInput, InboundMention } from '../../src/ingest/inboundEvent.js';

/** Which of our bots received the update (from getMe). */
export interface BotIdentity {
  id: number;
  username?: string;
}

export type TranslateResult =
  | { ok: true; event: InboundEventInput }
  /** `ignored`: a valid update we do not record (service message, channel post); else malformed. */
  | { ok: false; reason: string; ignored: boolean };

const user = z.object({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string(),
  last_name: z.string().optional(),
  username: z.string().optional(),
  language_code: z.string().optional(),
});
const chat = z.object({
  id: z.number().int(),
  type: z.enum(['private', 'group', 'supergroup', 'channel']),
  title: z.string().optional(),
  username: z.string().optional(),
});
const entity = z.object({
  type: z.string(),
  offset: z.number().int().nonnegative(),
  length: z.number().int().positive(),
  user: user.optional(),
});
const file = {
  file_id: z.string().min(1),
  file_unique_id: z.string().min(1),
  file_size: z.number().int().nonnegative().optional(),
};
const photoSize = z.object({ ...file, width: z.number().int().nonnegative(), height: z.number().int().nonnegative() });
const voice = z.object({ ...file, duration: z.number().nonnegative(), mime_type: z.string().optional() });
const audio = z.object({
  ...file,
  duration: z.number().nonnegative(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
});
const video = z.object({
  ...file,
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  duration: z.number().nonnegative(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
});
const videoNote = z.object({ ...file, length: z.number().int().nonnegative(), duration: z.number().nonnegative() });
const document = z.object({ ...file, file_name: z.string().optional(), mime_type: z.string().optional() });
const sticker = z.object({
  ...file,
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  is_animated: z.boolean(),
  is_video: z.boolean(),
  emoji: z.string().optional(),
  set_name: z.string().optional(),
});
/** The replied-to message as Telegram embeds it (its own reply_to_message is never included). */
const repliedMessage = z.object({
  message_id: z.number().int(),
  from: user.optional(),
  sender_chat: chat.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  forum_topic_created: z.object({ name: z.string() }).optional(),
});
const messageOrigin = z.object({
  type: z.string(),
  sender_user: user.optional(),
  sender_user_name: z.string().optional(),
  sender_chat: chat.optional(),
  chat: chat.optional(),
});
const message = z.object({
  message_id: z.number().int(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  date: z.number().int().nonnegative(),
  edit_date: z.number().int().nonnegative().optional(),
  chat,
  from: user.optional(),
  sender_chat: chat.optional(),
  text: z.string().optional(),
  entities: z.array(entity).optional(),
  caption: z.string().optional(),
  caption_entities: z.array(entity).optional(),
  photo: z.array(photoSize).min(1).optional(),
  animation: video.optional(),
  video: video.optional(),
  video_note: videoNote.optional(),
  voice: voice.optional(),
  audio: audio.optional(),
  document: document.optional(),
  sticker: sticker.optional(),
  media_group_id: z.string().min(1).optional(),
  reply_to_message: repliedMessage.optional(),
  quote: z.object({ text: z.string() }).optional(),
  external_reply: z
    .object({ origin: messageOrigin, chat: chat.optional(), message_id: z.number().int().optional() })
    .optional(),
});
type TgMessage = z.infer<typeof message>;
type TgUser = z.infer<typeof user>;
type TgChat = z.infer<typeof chat>;

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
  'successful_payment',
  'refunded_payment',
  'giveaway_created',
  'giveaway_completed',
  'connected_website',
  'web_app_data',
] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const malformed = (reason: string): TranslateResult => ({
  ok: false,
  reason: `malformed update: ${reason}`,
  ignored: false,
});
const ignored = (reason: string): TranslateResult => ({ ok: false, reason, ignored: true });
const issues = (e: z.ZodError): string =>
  e.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ');

/** One Bot API Update (only `message` and `edited_message` are recorded). */
export function translateUpdate(update: unknown, bot: BotIdentity): TranslateResult {
  if (!isRecord(update) || typeof update.update_id !== 'number') return malformed('update_id missing');
  if (update.message !== undefined) return translateMessage(update.message, bot, 'message');
  if (update.edited_message !== undefined) return translateMessage(update.edited_message, bot, 'edit');
  const kind = Object.keys(update).find((k) => k !== 'update_id') ?? 'empty';
  return ignored(`update kind ${kind} is not handled`);
}

/** A Message object: a new message, or (kind 'edit') the new state of an edited one. */
export function translateMessage(
  raw: unknown,
  bot: BotIdentity,
  kind: 'message' | 'edit' = 'message',
): TranslateResult {
  const parsed = message.safeParse(raw);
  if (!parsed.success) return malformed(issues(parsed.error));
  const m = parsed.data;
  if (m.chat.type === 'channel') return ignored('channel posts are not handled');
  const service = SERVICE_FIELDS.find((f) => isRecord(raw) && raw[f] !== undefined);
  if (service) return ignored(`service message (${service})`);
  const sender = senderOf(m);
  if (!sender) return malformed('message has neither from nor sender_chat');

  const body = m.text ?? m.caption;
  const mentions = mentionsOf(body ?? '', (m.text !== undefined ? m.entities : m.caption_entities) ?? []);
  if (!mentions.ok) return malformed(mentions.reason);

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
    mentions: mentions.list,
    ...(m.media_group_id ? { mediaGroupId: m.media_group_id } : {}),
  };

  if (kind === 'edit') {
    if (m.edit_date === undefined) return malformed('edited_message without edit_date');
    return { ok: true, event: { ...common, kind: 'edit', editedAt: new Date(m.edit_date * 1000) } };
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
    },
  };
}

function displayName(u: TgUser): string {
  return [u.first_name, u.last_name].filter(Boolean).join(' ');
}

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
  return { ...(c.title ? { displayName: c.title } : {}), ...(c.username ? { username: c.username } : {}) };
}

/** Entity offsets and lengths count UTF-16 code units, which is how JS strings index. */
function mentionsOf(
  text: string,
  entities: Array<z.infer<typeof entity>>,
): { ok: true; list: InboundMention[] } | { ok: false; reason: string } {
  const list: InboundMention[] = [];
  for (const e of entities) {
    if (e.type !== 'mention' && e.type !== 'text_mention') continue;
    if (e.offset + e.length > text.length) return { ok: false, reason: `${e.type} entity outside the text` };
    const covered = text.slice(e.offset, e.offset + e.length);
    if (e.type === 'mention') {
      const username = covered.replace(/^@/, '');
      if (username !== '') list.push({ username, text: covered });
    } else if (e.user) {
      list.push({ userId: String(e.user.id), text: covered });
    } else {
      return { ok: false, reason: 'text_mention entity without user' };
    }
  }
  return { ok: true, list };
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
        ? {
            userId: String(r.from.id),
            isBot: r.from.is_bot,
            displayName: displayName(r.from),
            ...(r.from.username ? { username: r.from.username } : {}),
          }
        : undefined;
    const text = r.text ?? r.caption;
    return {
      platformMessageId: String(r.message_id),
      ...(s ? { sender: s } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(quote !== undefined ? { quote } : {}),
    };
  }
  // A reply to a message in another chat: its id means nothing in this chat, so it is qualified
  // with the source chat (never matches a stored message) and carried by its quote.
  const x = m.external_reply;
  if (x && x.message_id !== undefined) {
    const source = x.chat ?? x.origin.chat ?? x.origin.sender_chat;
    const u = x.origin.sender_user;
    const sender = u
      ? {
          userId: String(u.id),
          isBot: u.is_bot,
          displayName: displayName(u),
          ...(u.username ? { username: u.username } : {}),
        }
      : undefined;
    return {
      platformMessageId: `${source ? source.id : 'external'}:${x.message_id}`,
      ...(sender ? { sender } : {}),
      ...(quote !== undefined ? { quote, text: quote } : {}),
    };
  }
  return undefined;
}

function attachmentsOf(m: TgMessage): InboundAttachment[] {
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
  // A GIF/animation also fills `document` for old clients; it is one attachment, a video.
  const moving = m.animation ?? m.video;
  if (moving) {
    out.push({
      kind: 'video',
      ...ids(moving),
      ...opt('fileName', moving.file_name),
      ...opt('mime', moving.mime_type),
      duration: moving.duration,
      width: moving.width,
      height: moving.height,
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
