// discord.js Message (messageCreate / messageUpdate / messageDelete) → InboundEvent.
// Translation only: no rule lives here (SPEC §2). The fields read are validated, so a malformed
// dispatch is reported, never half-stored. Echoes of our own bot and persona webhooks are passed
// on (sender.webhookId / sender.userId = recipient.userId): the core decides what to ignore.
import {
  ChannelType,
  MessageFlags,
  MessageReferenceType,
  MessageType,
  StickerFormatType,
  type Message,
  type PartialMessage,
} from 'discord.js';
import { z } from 'zod';
import type {
  AttachmentKind,
  InboundAttachment,
  InboundEventInput,
  InboundMention,
} from '../../src/ingest/inboundEvent.js';
import { snapshotOf, whereOf } from './snapshot.js';

export type TranslateResult =
  | { ok: true; event: InboundEventInput }
  /** Malformed: dropped and logged. */
  | { ok: false; reason: string }
  /** Well-formed but nothing for the core (a system message, an embed-only update). */
  | { ok: true; event: null; ignored: string };

const snowflake = z.string().regex(/^\d{15,21}$/, 'not a snowflake');
const channelSnap = z.object({
  id: snowflake,
  type: z.number().int(),
  name: z.string().nullable(),
  parentId: snowflake.nullable(),
  parentName: z.string().nullable(),
});
const recipientSnap = z.object({
  userId: snowflake,
  username: z.string().min(1),
  roleIds: z.array(snowflake).optional(),
});
const whereSnap = z.object({
  id: snowflake,
  channel: channelSnap.nullable(),
  recipient: recipientSnap.nullable(),
});
const authorSnap = z.object({
  id: snowflake,
  bot: z.boolean(),
  username: z.string().min(1),
  globalName: z.string().nullable(),
});
const messageSnap = whereSnap.extend({
  type: z.number().int(),
  content: z.string(),
  createdTimestamp: z.number().int().positive(),
  editedTimestamp: z.number().int().positive().nullable(),
  flags: z.number().int().nonnegative(),
  webhookId: snowflake.nullable(),
  applicationId: snowflake.nullable(),
  author: authorSnap,
  memberDisplayName: z.string().nullable(),
  attachments: z.array(
    z.object({
      id: snowflake,
      url: z.url(),
      name: z.string().min(1),
      size: z.number().int().nonnegative(),
      contentType: z.string().min(1).nullable(),
      duration: z.number().nonnegative().nullable(),
      width: z.number().int().nonnegative().nullable(),
      height: z.number().int().nonnegative().nullable(),
    }),
  ),
  stickers: z.array(z.object({ id: snowflake, name: z.string(), format: z.number().int(), url: z.url() })),
  reference: z.object({ messageId: snowflake.nullable(), type: z.number().int().nullable() }).nullable(),
  referenced: z.object({ author: authorSnap, content: z.string() }).nullable(),
  mentionedUsers: z.array(z.object({ id: snowflake, username: z.string() })),
  mentionedRoles: z.array(snowflake),
});
type Where = z.infer<typeof whereSnap>;
type Snap = z.infer<typeof messageSnap>;

const THREADS: number[] = [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread];
/** Guild channels whose messages people type (text chat in voice and stage channels included). */
const GUILD_TEXT: number[] = [
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildVoice,
  ChannelType.GuildStageVoice,
];
/** What people post; the other types are system notices (joins, pins, thread created…). */
const USER_TYPES: number[] = [MessageType.Default, MessageType.Reply];

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ');
}

type Chat = Extract<InboundEventInput, { kind: 'delete' }>['chat'];

function chatOf(w: Where): Chat | string {
  const c = w.channel;
  if (!c) return 'channel unknown to the client';
  if (c.type === Number(ChannelType.DM)) return { chatId: c.id, kind: 'private' };
  if (THREADS.includes(c.type)) {
    if (!c.parentId) return 'thread without parent channel';
    return { chatId: c.parentId, threadId: c.id, kind: 'group', ...(c.parentName ? { title: c.parentName } : {}) };
  }
  if (GUILD_TEXT.includes(c.type)) return { chatId: c.id, kind: 'group', ...(c.name ? { title: c.name } : {}) };
  return `unsupported channel type ${c.type}`;
}

const recipientOf = (w: Where) => w.recipient ?? undefined;

function senderOf(s: Snap) {
  return {
    userId: s.author.id,
    isBot: s.author.bot,
    username: s.author.username,
    displayName: s.memberDisplayName ?? s.author.globalName ?? s.author.username,
    ...(s.webhookId ? { webhookId: s.webhookId } : {}),
    ...(s.applicationId ? { applicationId: s.applicationId } : {}),
  };
}

/** "image/png; charset=…" → "image/png". */
const bareMime = (contentType: string | null): string | undefined =>
  contentType?.split(';')[0]?.trim().toLowerCase() || undefined;

function attachmentKind(mime: string | undefined, voiceMessage: boolean): AttachmentKind {
  if (mime?.startsWith('image/')) return 'image';
  if (mime?.startsWith('audio/')) return voiceMessage ? 'voice' : 'audio';
  if (mime?.startsWith('video/')) return 'video';
  return 'document';
}

const STICKER_FILE: Record<number, { ext: string; mime: string }> = {
  [StickerFormatType.PNG]: { ext: 'png', mime: 'image/png' },
  [StickerFormatType.APNG]: { ext: 'png', mime: 'image/apng' },
  [StickerFormatType.GIF]: { ext: 'gif', mime: 'image/gif' },
  [StickerFormatType.Lottie]: { ext: 'json', mime: 'application/json' },
};

function attachmentsOf(s: Snap): InboundAttachment[] {
  const voice = (s.flags & MessageFlags.IsVoiceMessage) !== 0;
  const files = s.attachments.map((a): InboundAttachment => {
    const mime = bareMime(a.contentType);
    return {
      kind: attachmentKind(mime, voice),
      fileRef: a.url,
      uniqueId: a.id,
      fileName: a.name,
      ...(mime ? { mime } : {}),
      size: a.size,
      ...(a.duration !== null ? { duration: a.duration } : {}),
      ...(a.width !== null ? { width: a.width } : {}),
      ...(a.height !== null ? { height: a.height } : {}),
      sourceMessageId: s.id,
    };
  });
  const stickers = s.stickers.map((st): InboundAttachment => {
    const file = STICKER_FILE[st.format];
    return {
      kind: 'sticker',
      fileRef: st.url,
      uniqueId: st.id,
      fileName: `${st.name}.${file?.ext ?? 'png'}`,
      ...(file ? { mime: file.mime } : {}),
      sourceMessageId: s.id,
    };
  });
  return [...files, ...stickers];
}

const escape = (id: string): string => id.replace(/\D/g, '');

function mentionsOf(s: Snap): InboundMention[] {
  const users = s.mentionedUsers.map((u): InboundMention => {
    // The token as typed; absent when Discord added the user only because a reply pings its author.
    const token = new RegExp(`<@!?${escape(u.id)}>`).exec(s.content)?.[0];
    return { userId: u.id, username: u.username, ...(token ? { text: token } : {}) };
  });
  // discord.js keeps only roles it has cached; the content carries every role mention.
  const roleIds = new Set([...s.mentionedRoles, ...[...s.content.matchAll(/<@&(\d{15,21})>/g)].map((m) => m[1] ?? '')]);
  const roles = [...roleIds].filter(Boolean).map((id): InboundMention => ({ roleId: id, text: `<@&${id}>` }));
  return [...users, ...roles];
}

function replyOf(s: Snap) {
  const ref = s.reference;
  // A forward (type 1) quotes nothing the user answers; only a plain reply counts.
  if (!ref?.messageId || (ref.type !== null && ref.type !== Number(MessageReferenceType.Default))) return undefined;
  const r = s.referenced;
  return {
    platformMessageId: ref.messageId,
    ...(r
      ? {
          sender: {
            userId: r.author.id,
            isBot: r.author.bot,
            username: r.author.username,
            displayName: r.author.globalName ?? r.author.username,
          },
          ...(r.content !== '' ? { text: r.content } : {}),
        }
      : {}),
  };
}

function parseMessage(m: Message | PartialMessage): { ok: true; s: Snap; chat: Chat } | { ok: false; reason: string } {
  let raw: unknown;
  try {
    raw = snapshotOf(m);
  } catch (err) {
    return { ok: false, reason: `unreadable message: ${String(err)}` };
  }
  const parsed = messageSnap.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `malformed message: ${describe(parsed.error)}` };
  const chat = chatOf(parsed.data);
  if (typeof chat === 'string') return { ok: false, reason: chat };
  return { ok: true, s: parsed.data, chat };
}

export function translateCreate(m: Message | PartialMessage): TranslateResult {
  const p = parseMessage(m);
  if (!p.ok) return p;
  const { s, chat } = p;
  if (!USER_TYPES.includes(s.type)) return { ok: true, event: null, ignored: `system message type ${s.type}` };
  const replyTo = replyOf(s);
  return {
    ok: true,
    event: {
      platform: 'discord',
      kind: 'message',
      chat,
      platformMessageId: s.id,
      recipient: recipientOf(s),
      sender: senderOf(s),
      ...(s.content !== '' ? { text: s.content } : {}),
      attachments: attachmentsOf(s),
      mentions: mentionsOf(s),
      ...(replyTo ? { replyTo } : {}),
      sentAt: new Date(s.createdTimestamp),
    },
  };
}

export function translateUpdate(old: Message | PartialMessage, m: Message | PartialMessage): TranslateResult {
  const p = parseMessage(m);
  if (!p.ok) return p;
  const { s, chat } = p;
  if (!USER_TYPES.includes(s.type)) return { ok: true, event: null, ignored: `system message type ${s.type}` };
  // Discord also sends MESSAGE_UPDATE for link embeds, pins and flags: only a text change is an edit.
  if (!old.partial && old.content === s.content) return { ok: true, event: null, ignored: 'content unchanged' };
  if (old.partial && s.editedTimestamp === null) return { ok: true, event: null, ignored: 'not edited by its author' };
  return {
    ok: true,
    event: {
      platform: 'discord',
      kind: 'edit',
      chat,
      platformMessageId: s.id,
      recipient: recipientOf(s),
      sender: senderOf(s),
      ...(s.content !== '' ? { text: s.content } : {}),
      mentions: mentionsOf(s),
      editedAt: new Date(s.editedTimestamp ?? Date.now()),
    },
  };
}

export function translateDelete(m: Message | PartialMessage): TranslateResult {
  let raw: unknown;
  try {
    raw = whereOf(m);
  } catch (err) {
    return { ok: false, reason: `unreadable deletion: ${String(err)}` };
  }
  const parsed = whereSnap.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `malformed deletion: ${describe(parsed.error)}` };
  const chat = chatOf(parsed.data);
  if (typeof chat === 'string') return { ok: false, reason: chat };
  return {
    ok: true,
    event: {
      platform: 'discord',
      kind: 'delete',
      chat,
      platformMessageId: parsed.data.id,
      recipient: recipientOf(parsed.data),
      deletedAt: new Date(),
    },
  };
}
