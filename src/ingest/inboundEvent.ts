// The one shape every adapter translates platform updates into (SPEC §2). Validated at the
// boundary so a bug in an adapter cannot write a malformed record. Adapters only translate:
// every decision (answer or not, which turn, what an edit does) is made in the core.
import { z } from 'zod';
import { ATTACHMENT_KINDS, type ChatRef } from '../domain/model.js';
import { textWithShared, type ForwardOrigin, type SharedItem } from '../domain/sharedContent.js';

export type { AttachmentKind } from '../domain/model.js';

export const inboundAttachmentSchema = z.object({
  kind: z.enum(ATTACHMENT_KINDS),
  /**
   * How the platform's media source finds the bytes again: a Telegram file_id, a Discord
   * attachment URL. Opaque to the core.
   */
  fileRef: z.string().min(1),
  /** A stable id of the file across re-uploads (Telegram file_unique_id, Discord attachment id). */
  uniqueId: z.string().min(1).optional(),
  fileName: z.string().optional(),
  mime: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  /** Seconds, for audio, voice and video. */
  duration: z.number().nonnegative().optional(),
  width: z.number().int().nonnegative().optional(),
  height: z.number().int().nonnegative().optional(),
  /** Stickers: the emoji the sticker stands for, and its set. */
  emoji: z.string().optional(),
  setName: z.string().optional(),
  /** Stickers: the sticker's own name where the platform gives one (Discord). */
  stickerName: z.string().optional(),
  /** Music: the track's title and performer as the platform tags them (Telegram audio). */
  title: z.string().max(500).optional(),
  performer: z.string().max(500).optional(),
  /** A still frame the platform made (Telegram's GIF thumbnail): how a GIF is described. */
  frameRef: z.string().min(1).optional(),
  /** The platform message that carried it (differs per item of a Telegram album). */
  sourceMessageId: z.string().min(1),
});
export type InboundAttachment = z.infer<typeof inboundAttachmentSchema>;

/** A mention as the platform marked it; the core maps it to a participant. */
export const inboundMentionSchema = z.object({
  /** Platform user id (Telegram text_mention, Discord <@id>). */
  userId: z.string().min(1).optional(),
  /** @username as typed (Telegram `mention` entity), without the @. */
  username: z.string().min(1).optional(),
  /** Discord role mention <@&id>. */
  roleId: z.string().min(1).optional(),
  /** The text the mention covered, for rendering. */
  text: z.string().optional(),
});
export type InboundMention = z.infer<typeof inboundMentionSchema>;

const senderSchema = z.object({
  userId: z.string().min(1),
  isBot: z.boolean(),
  username: z.string().optional(),
  displayName: z.string().optional(),
  /** IETF tag from the platform (Telegram's language_code), used to pick notice language. */
  languageCode: z.string().optional(),
  /** Discord: the message came through a webhook (our persona webhooks post this way). */
  webhookId: z.string().optional(),
  /** Discord: the application that owns the webhook or interaction (ours → an echo of our own post). */
  applicationId: z.string().optional(),
  /**
   * The channel itself let this sender in by a credential an operator issued (the web channel's
   * token), so an allowlist admits them as it would an invited person (SPEC §14).
   */
  vouched: z.boolean().optional(),
});

const coordinate = z.number().finite();
/** Non-text content a message shares (src/domain/sharedContent.ts words it for the model). */
export const sharedItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('location'), latitude: coordinate, longitude: coordinate, live: z.boolean().optional() }),
  z.object({
    kind: z.literal('venue'),
    title: z.string(),
    address: z.string(),
    latitude: coordinate,
    longitude: coordinate,
  }),
  z.object({ kind: z.literal('contact'), name: z.string(), phone: z.string().optional() }),
  z.object({
    kind: z.literal('poll'),
    question: z.string(),
    options: z.array(z.string()),
    quiz: z.boolean().optional(),
    multipleAnswers: z.boolean().optional(),
    closed: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('dice'), emoji: z.string(), value: z.number().int() }),
  z.object({ kind: z.literal('game'), title: z.string(), description: z.string().optional() }),
  z.object({
    kind: z.literal('invoice'),
    title: z.string(),
    description: z.string().optional(),
    amount: z.number().int(),
    currency: z.string().min(1),
  }),
  z.object({ kind: z.literal('payment'), amount: z.number().int(), currency: z.string().min(1) }),
  z.object({ kind: z.literal('story'), from: z.string().optional() }),
  z.object({
    kind: z.literal('embed'),
    title: z.string().optional(),
    description: z.string().optional(),
    author: z.string().optional(),
    fields: z.array(z.object({ name: z.string(), value: z.string() })).default([]),
    footer: z.string().optional(),
    url: z.string().optional(),
  }),
]);
export type InboundSharedItem = z.input<typeof sharedItemSchema>;
// Compile-time check that the boundary's shapes are the domain's.
const _sharedIsDomain = (i: z.output<typeof sharedItemSchema>): SharedItem => i;
void _sharedIsDomain;

/** Where a forwarded message came from, as the platform named it. */
export const forwardOriginSchema = z.object({ name: z.string().optional(), signature: z.string().optional() });
const _forwardIsDomain = (o: z.output<typeof forwardOriginSchema>): ForwardOrigin => o;
void _forwardIsDomain;

/**
 * Shared items and the forward origin are worded into the text at the core's boundary, so every
 * later reader (the prompt, search, titles, BR-001's emptiness check) sees what was sent.
 */
const foldShared = <T extends { text?: string | undefined; shared?: SharedItem[]; forwardedFrom?: ForwardOrigin }>(
  v: T,
): T => {
  const text = textWithShared(v.text, v.shared ?? [], v.forwardedFrom);
  return text === undefined ? v : { ...v, text };
};

/** The message this one answers or quotes, as the platform showed it. */
const quotedMediaSchema = z.object({
  kind: z.enum(ATTACHMENT_KINDS),
  fileName: z.string().max(1000).optional(),
});

export const inboundReplySchema = z
  .object({
    platformMessageId: z.string().min(1),
    sender: senderSchema.pick({ userId: true, isBot: true, username: true, displayName: true }).optional(),
    /** The quoted text as the platform carried it, used when the original is not in the store. */
    text: z.string().optional(),
    /** Telegram partial quote (the user selected part of the message). */
    quote: z.string().optional(),
    /** What the quoted message shares (a story, a poll…): worded into `text`. */
    shared: z.array(sharedItemSchema).optional(),
    /** The media the quoted message carried, used when the original is not in the store. */
    media: z.array(quotedMediaSchema).max(20).optional(),
  })
  .transform(foldShared);

const chatSchema = z.object({
  chatId: z.string().min(1),
  threadId: z.string().min(1).optional(),
  kind: z.enum(['private', 'group']),
  title: z.string().optional(),
  /** A private chat held by an agent's own bot: that agent's id, set by the gateway that runs the bot (never by the platform). */
  bot: z.string().min(1).optional(),
});

/** Which of our bot accounts received the update: the core decides whether it was addressed. */
const recipientSchema = z.object({
  userId: z.string().min(1),
  username: z.string().optional(),
  /** Discord: roles the bot's member holds in this guild, so a role mention can address it. */
  roleIds: z.array(z.string()).optional(),
});

const base = {
  // A registered platform's id (app/platforms.ts); the adapter sets it, never the sender.
  platform: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/),
  chat: chatSchema,
  platformMessageId: z.string().min(1),
  recipient: recipientSchema.optional(),
};

export const newMessageSchema = z
  .object({
    ...base,
    kind: z.literal('message').default('message'),
    sender: senderSchema,
    /** Text or caption as typed; undefined when the message carries only media. */
    text: z.string().optional(),
    attachments: z.array(inboundAttachmentSchema).default([]),
    mentions: z.array(inboundMentionSchema).default([]),
    replyTo: inboundReplySchema.optional(),
    /** Telegram albums: items sharing this id are one inbound message. */
    mediaGroupId: z.string().min(1).optional(),
    sentAt: z.date(),
    /** What the message shares besides text and files; worded into `text`. */
    shared: z.array(sharedItemSchema).optional(),
    forwardedFrom: forwardOriginSchema.optional(),
    /**
     * false (absent: true): the platform gives no ordinary way to answer it here (a Telegram guest query, in a
     * chat the bot is not a member of), so it is kept as context and never answered.
     */
    answerable: z.boolean().optional(),
  })
  .transform(foldShared);

export const editSchema = z
  .object({
    ...base,
    kind: z.literal('edit'),
    sender: senderSchema,
    text: z.string().optional(),
    /** Telegram: an edited album caption names the album, whose stored message id derives from it. */
    mediaGroupId: z.string().min(1).optional(),
    mentions: z.array(inboundMentionSchema).default([]),
    editedAt: z.date(),
    shared: z.array(sharedItemSchema).optional(),
    forwardedFrom: forwardOriginSchema.optional(),
  })
  .transform(foldShared);

export const deleteSchema = z.object({
  ...base,
  kind: z.literal('delete'),
  deletedAt: z.date(),
});

export const inboundEventSchema = z.union([newMessageSchema, editSchema, deleteSchema]);

/** What an adapter produces (kind may be omitted for a new message). */
export type InboundEventInput = z.input<typeof inboundEventSchema>;
export type InboundEvent = z.output<typeof inboundEventSchema>;
export type InboundMessage = z.output<typeof newMessageSchema>;
export type InboundEdit = z.output<typeof editSchema>;
export type InboundDelete = z.output<typeof deleteSchema>;

/** Where an event happened, as the record names it (the chosen agent of a private chat is added by ingest). */
export const chatRefOf = (ev: InboundEvent): ChatRef => ({
  platform: ev.platform,
  chatId: ev.chat.chatId,
  ...(ev.chat.threadId ? { threadId: ev.chat.threadId } : {}),
  ...(ev.chat.bot ? { bot: ev.chat.bot } : {}),
});
