// The Bot API shapes translation reads (core.telegram.org/bots/api#message), validated field by
// field: a malformed optional field (one bad entity, one bad photo size, a bad poll) is dropped
// and named, never the whole message. Only the fields a message cannot be placed without
// (message_id, date, chat) make it malformed.
import { z } from 'zod';
import { fieldsOf, isRecord, listsOf, type Fields, type Lists } from '../lenientFields.js';

export { isRecord };

export const user = z.object({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string(),
  last_name: z.string().optional(),
  username: z.string().optional(),
  language_code: z.string().optional(),
});
export const chat = z.object({
  id: z.number().int(),
  type: z.enum(['private', 'group', 'supergroup', 'channel']),
  title: z.string().optional(),
  username: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
});
export const entity = z.object({
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
export const photoSize = z.object({
  ...file,
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
});
const voice = z.object({ ...file, duration: z.number().nonnegative(), mime_type: z.string().optional() });
const audio = z.object({
  ...file,
  duration: z.number().nonnegative(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
  title: z.string().optional(),
  performer: z.string().optional(),
});
const video = z.object({
  ...file,
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  duration: z.number().nonnegative(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
});
/** A GIF: Telegram sends it as a silent MP4, with a still `thumbnail` (`thumb` before Bot API 6.6). */
const animation = video.extend({ thumbnail: photoSize.optional(), thumb: photoSize.optional() });
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
/** MessageOrigin of every kind (user, hidden_user, chat, channel); unknown kinds still parse. */
export const messageOrigin = z.object({
  type: z.string(),
  sender_user: user.optional(),
  sender_user_name: z.string().optional(),
  sender_chat: chat.optional(),
  chat: chat.optional(),
  author_signature: z.string().optional(),
});
const location = z.object({
  latitude: z.number().finite(),
  longitude: z.number().finite(),
  live_period: z.number().int().optional(),
});
const story = z.object({ chat, id: z.number().int() });

/** What a message may share besides text and files (also found in replies and external replies). */
const sharedFields = {
  location,
  venue: z.object({ location, title: z.string(), address: z.string() }),
  contact: z.object({ phone_number: z.string(), first_name: z.string(), last_name: z.string().optional() }),
  poll: z.object({
    question: z.string(),
    options: z.array(z.object({ text: z.string() })),
    type: z.string().optional(),
    allows_multiple_answers: z.boolean().optional(),
    is_closed: z.boolean().optional(),
  }),
  dice: z.object({ emoji: z.string(), value: z.number().int() }),
  game: z.object({ title: z.string(), description: z.string().optional() }),
  invoice: z.object({
    title: z.string(),
    description: z.string().optional(),
    currency: z.string().min(1),
    total_amount: z.number().int(),
  }),
  successful_payment: z.object({ currency: z.string().min(1), total_amount: z.number().int() }),
  story,
};

/** The media a message carries (besides its photo sizes, a list). */
const mediaFields = { animation, video, video_note: videoNote, voice, audio, document, sticker };

/** The replied-to message as Telegram embeds it (its own reply_to_message is never included). */
const repliedFields = {
  from: user,
  sender_chat: chat,
  text: z.string(),
  caption: z.string(),
  forum_topic_created: z.object({ name: z.string() }),
  forward_origin: messageOrigin,
  // What it carried, so a reply to a captionless photo or GIF is quoted as that (issue 35).
  ...mediaFields,
  ...sharedFields,
};
const externalFields = { origin: messageOrigin, chat, message_id: z.number().int(), ...sharedFields };

const messageFields = {
  message_thread_id: z.number().int(),
  is_topic_message: z.boolean(),
  edit_date: z.number().int().nonnegative(),
  from: user,
  sender_chat: chat,
  text: z.string(),
  caption: z.string(),
  ...mediaFields,
  media_group_id: z.string().min(1),
  quote: z.object({ text: z.string() }),
  forward_origin: messageOrigin,
  reply_to_story: story,
  /** Bot API 10.0 guest mode: set on the message that summoned the bot as a guest. */
  guest_query_id: z.string(),
  ...sharedFields,
};
const messageLists = { entities: entity, caption_entities: entity, photo: photoSize };
const repliedLists = { photo: photoSize };

export type Replied = Fields<typeof repliedFields> & Lists<typeof repliedLists> & { message_id: number };
export type External = Fields<typeof externalFields>;
export type Shared = Fields<typeof sharedFields>;
export type TgMessage = Fields<typeof messageFields> &
  Lists<typeof messageLists> & {
    message_id: number;
    date: number;
    chat: z.output<typeof chat>;
    reply_to_message?: Replied;
    external_reply?: External;
  };
export type TgUser = z.output<typeof user>;
export type TgChat = z.output<typeof chat>;
export type TgEntity = z.output<typeof entity>;
export type TgOrigin = z.output<typeof messageOrigin>;

const core = z.object({ message_id: z.number().int(), date: z.number().int().nonnegative(), chat });

export type Parsed = { ok: true; m: TgMessage; dropped: string[] } | { ok: false; reason: string };

/** A Message object, leniently: only message_id, date and chat are required to be well formed. */
export function parseMessage(raw: unknown): Parsed {
  const c = core.safeParse(raw);
  if (!c.success || !isRecord(raw))
    return {
      ok: false,
      reason: c.success ? 'not an object' : c.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; '),
    };
  const dropped: string[] = [];
  const m: TgMessage = {
    ...fieldsOf(raw, messageFields, '', dropped),
    ...listsOf(raw, messageLists, '', dropped),
    ...c.data,
  };
  const r = raw.reply_to_message;
  if (r !== undefined) {
    const id = isRecord(r) ? z.number().int().safeParse(r.message_id) : undefined;
    if (isRecord(r) && id?.success)
      m.reply_to_message = {
        ...fieldsOf(r, repliedFields, 'reply_to_message.', dropped),
        ...listsOf(r, repliedLists, 'reply_to_message.', dropped),
        message_id: id.data,
      };
    else dropped.push('reply_to_message');
  }
  const x = raw.external_reply;
  if (x !== undefined) {
    if (isRecord(x)) m.external_reply = fieldsOf(x, externalFields, 'external_reply.', dropped);
    else dropped.push('external_reply');
  }
  return { ok: true, m, dropped };
}
