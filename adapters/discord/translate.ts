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
import { fieldsOf, isRecord, listsOf, type Fields, type Lists } from '../lenientFields.js';
import { cardsOf, forwardOf, pollOf, readableContent } from './content.js';
import { snapshotOf, whereOf } from './snapshot.js';

export type TranslateResult =
  /** `warnings`: malformed fields left out (paths only, never values). */
  | { ok: true; event: InboundEventInput; warnings: string[] }
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
/** What a message cannot be placed without: validated as a whole. */
const coreSnap = whereSnap.extend({
  type: z.number().int(),
  content: z.string(),
  createdTimestamp: z.number().int().positive(),
  editedTimestamp: z.number().int().positive().nullable(),
  flags: z.number().int().nonnegative(),
  webhookId: snowflake.nullable(),
  applicationId: snowflake.nullable(),
  author: authorSnap,
  memberDisplayName: z.string().nullable(),
});
const attachmentSnap = z.object({
  id: snowflake,
  url: z.url(),
  name: z.string().min(1),
  size: z.number().int().nonnegative(),
  contentType: z.string().min(1).nullable(),
  duration: z.number().nonnegative().nullable(),
  width: z.number().int().nonnegative().nullable(),
  height: z.number().int().nonnegative().nullable(),
});
const stickerSnap = z.object({ id: snowflake, name: z.string(), format: z.number().int(), url: z.url() });
const embedSnap = z.object({
  type: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  url: z.string().nullable(),
  author: z.string().nullable(),
  footer: z.string().nullable(),
  fields: z.array(z.object({ name: z.string(), value: z.string() })),
});
/** Lists whose items are validated one by one (a bad one is dropped alone). */
const fileLists = { attachments: attachmentSnap, stickers: stickerSnap };
const contentLists = { ...fileLists, embeds: embedSnap };
const snapshotSnap = z.looseObject({ content: z.string() });
const messageFields = {
  reference: z.object({
    messageId: snowflake.nullable(),
    channelId: snowflake.nullable(),
    type: z.number().int().nullable(),
    channelName: z.string().nullable().catch(null),
  }),
  referenced: z.object({ author: authorSnap, content: z.string(), flags: z.number().int().nonnegative().catch(0) }),
  poll: z.object({
    question: z.string().nullable(),
    answers: z.array(z.string()),
    allowMultiselect: z.boolean(),
    resultsFinalized: z.boolean(),
  }),
};
const messageLists = {
  ...contentLists,
  snapshots: snapshotSnap,
  mentionedUsers: z.object({ id: snowflake, username: z.string(), displayName: z.string() }),
  mentionedRoles: z.object({ id: snowflake, name: z.string().nullable() }),
  mentionedChannels: z.object({ id: snowflake, name: z.string().nullable() }),
};
type Content = Lists<typeof contentLists> & { content: string; id: string; flags: number };
type Snap = z.infer<typeof coreSnap> &
  Fields<typeof messageFields> &
  Lists<typeof messageLists> & {
    forwarded: Content[];
    /** The replied-to message's files and stickers, each validated alone. */
    referencedFiles: Lists<typeof fileLists>;
  };
type Where = z.infer<typeof whereSnap>;

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
/**
 * An application's answer to a slash or context-menu command: everyone in the channel sees it,
 * and its author is always the application's bot.
 */
const COMMAND_REPLY_TYPES: number[] = [MessageType.ChatInputCommand, MessageType.ContextMenuCommand];
/** What reaches the core; every other type is a system notice. */
const POSTED_TYPES: number[] = [...USER_TYPES, ...COMMAND_REPLY_TYPES];

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
    isBot: s.author.bot || COMMAND_REPLY_TYPES.includes(s.type),
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

function attachmentsOf(s: Content): InboundAttachment[] {
  const voice = (s.flags & MessageFlags.IsVoiceMessage) !== 0;
  const files = (s.attachments ?? []).map((a): InboundAttachment => {
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
  const stickers = (s.stickers ?? []).map((st): InboundAttachment => {
    const file = STICKER_FILE[st.format];
    return {
      kind: 'sticker',
      fileRef: st.url,
      uniqueId: st.id,
      fileName: `${st.name}.${file?.ext ?? 'png'}`,
      stickerName: st.name,
      ...(file ? { mime: file.mime } : {}),
      sourceMessageId: s.id,
    };
  });
  return [...files, ...stickers];
}

const escape = (id: string): string => id.replace(/\D/g, '');

/** Mentions as marked, each with the name it reads as in the text. */
function mentionsOf(s: Snap): InboundMention[] {
  const users = (s.mentionedUsers ?? []).map((u): InboundMention => {
    // Typed in the text, or added by Discord only because a reply pings its author.
    const typed = new RegExp(`<@!?${escape(u.id)}>`).test(s.content);
    return { userId: u.id, username: u.username, ...(typed ? { text: `@${u.displayName}` } : {}) };
  });
  const roles = (s.mentionedRoles ?? []).map((r): InboundMention => ({
    roleId: r.id,
    text: `@${r.name ?? 'unknown-role'}`,
  }));
  return [...users, ...roles];
}

/** A crosspost points at its source in another channel: that is no reply to answer. */
const isCrosspost = (s: Snap): boolean =>
  (s.flags & MessageFlags.IsCrosspost) !== 0 || (!!s.reference?.channelId && s.reference.channelId !== s.channel?.id);

function replyOf(s: Snap) {
  const ref = s.reference;
  // A forward (type 1) quotes nothing the user answers; only a plain reply counts.
  if (!ref?.messageId || (ref.type !== null && ref.type !== Number(MessageReferenceType.Default))) return undefined;
  if (isCrosspost(s)) return undefined;
  const r = s.referenced;
  // What the quoted message carried, read like a message's own files: kind and name.
  const media = r
    ? attachmentsOf({ id: ref.messageId, flags: r.flags, content: r.content, ...s.referencedFiles }).map((a) => {
        const name = a.stickerName ?? a.fileName;
        return { kind: a.kind, ...(name ? { fileName: name } : {}) };
      })
    : [];
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
          ...(r.content !== '' ? { text: readableContent(r.content, s) } : {}),
          ...(media.length > 0 ? { media } : {}),
        }
      : {}),
  };
}

/** A forwarded message's own content (message_snapshots), each snapshot validated alone. */
function forwardedOf(core: { id: string; flags: number }, raw: unknown, dropped: string[]): Content[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown, i): Content[] => {
    if (!isRecord(item) || typeof item.content !== 'string') return [];
    return [{ ...core, content: item.content, ...listsOf(item, contentLists, `snapshots[${i}].`, dropped) }];
  });
}

function parseMessage(
  m: Message | PartialMessage,
): { ok: true; s: Snap; chat: Chat; dropped: string[] } | { ok: false; reason: string } {
  let raw: unknown;
  try {
    raw = snapshotOf(m);
  } catch (err) {
    return { ok: false, reason: `unreadable message: ${String(err)}` };
  }
  const parsed = coreSnap.safeParse(raw);
  if (!parsed.success || !isRecord(raw))
    return { ok: false, reason: `malformed message: ${parsed.success ? 'not an object' : describe(parsed.error)}` };
  const chat = chatOf(parsed.data);
  if (typeof chat === 'string') return { ok: false, reason: chat };
  const dropped: string[] = [];
  const lists = listsOf(raw, messageLists, '', dropped);
  const fields = fieldsOf(raw, messageFields, '', dropped);
  const s: Snap = {
    ...parsed.data,
    ...fields,
    ...lists,
    forwarded: forwardedOf({ id: parsed.data.id, flags: 0 }, lists.snapshots, dropped),
    referencedFiles:
      fields.referenced && isRecord(raw.referenced) ? listsOf(raw.referenced, fileLists, 'referenced.', dropped) : {},
  };
  return { ok: true, s, chat, dropped };
}

/** Text, files and shared items of a message, a forward's included. */
function bodyOf(s: Snap) {
  const own = readableContent(s.content, s);
  const attachments = [...attachmentsOf(s), ...s.forwarded.flatMap(attachmentsOf)];
  const forwardedText = s.forwarded
    .map((f) => readableContent(f.content, s))
    .filter((t) => t !== '')
    .join('\n');
  const shared = [
    ...s.forwarded.flatMap((f) => cardsOf(f.embeds ?? [], f.content !== '' || (f.attachments ?? []).length > 0)),
    ...cardsOf(s.embeds ?? [], own !== '' || attachments.length > 0 || s.forwarded.length > 0),
    ...(s.poll ? [pollOf(s.poll)] : []),
  ];
  const isForward = s.reference?.type === Number(MessageReferenceType.Forward) && s.forwarded.length > 0;
  // A forward with a comment: the comment is the user's own words, after what they forwarded.
  const text = [forwardedText, own].filter((t) => t !== '').join('\n');
  return {
    ...(text !== '' ? { text } : {}),
    attachments,
    ...(shared.length > 0 ? { shared } : {}),
    ...(isForward ? { forwardedFrom: forwardOf(s.reference?.channelName) } : {}),
  };
}

export function translateCreate(m: Message | PartialMessage): TranslateResult {
  const p = parseMessage(m);
  if (!p.ok) return p;
  const { s, chat } = p;
  if (!POSTED_TYPES.includes(s.type)) return { ok: true, event: null, ignored: `system message type ${s.type}` };
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
      ...bodyOf(s),
      mentions: mentionsOf(s),
      ...(replyTo ? { replyTo } : {}),
      sentAt: new Date(s.createdTimestamp),
    },
    warnings: p.dropped,
  };
}

export function translateUpdate(old: Message | PartialMessage, m: Message | PartialMessage): TranslateResult {
  const p = parseMessage(m);
  if (!p.ok) return p;
  const { s, chat } = p;
  if (!POSTED_TYPES.includes(s.type)) return { ok: true, event: null, ignored: `system message type ${s.type}` };
  // Discord also sends MESSAGE_UPDATE for link embeds, pins and flags: only a text change is an edit.
  if (!old.partial && old.content === s.content) return { ok: true, event: null, ignored: 'content unchanged' };
  if (old.partial && s.editedTimestamp === null) return { ok: true, event: null, ignored: 'not edited by its author' };
  const { attachments: _files, ...body } = bodyOf(s);
  return {
    ok: true,
    event: {
      platform: 'discord',
      kind: 'edit',
      chat,
      platformMessageId: s.id,
      recipient: recipientOf(s),
      sender: senderOf(s),
      ...body,
      mentions: mentionsOf(s),
      editedAt: new Date(s.editedTimestamp ?? Date.now()),
    },
    warnings: p.dropped,
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
    warnings: [],
  };
}
