// Reads the fields translation needs off a discord.js Message into a plain object. discord.js
// copies gateway data onto its classes without checking it, so nothing read here is trusted:
// translate.ts validates the snapshot with zod before using any of it.
import type { Message, PartialMessage } from 'discord.js';

/** Every value is as discord.js holds it at runtime — possibly missing or of the wrong type. */
export type MessageSnapshot = Record<string, unknown>;

/** Channel, chat and recipient — everything a delete (often a partial message) can still tell. */
export function whereOf(m: Message | PartialMessage): MessageSnapshot {
  // m.channel resolves from the client's cache; a channel discord.js never saw is null.
  const channel = m.client.channels.resolve(m.channelId);
  const parent = channel?.isThread() ? channel.parent : null;
  const me = m.client.user;
  const guild = m.guildId ? m.client.guilds.resolve(m.guildId) : null;
  const myRoles = guild?.members.me?.roles.cache;
  return {
    id: m.id,
    channel: channel && {
      id: channel.id,
      type: channel.type,
      name: 'name' in channel ? channel.name : null,
      parentId: channel.isThread() ? channel.parentId : null,
      parentName: parent?.name ?? null,
    },
    recipient: me && {
      userId: me.id,
      username: me.username,
      // @everyone is a role whose id is the guild's; it is not a mention target.
      ...(guild && myRoles ? { roleIds: [...myRoles.keys()].filter((id) => id !== guild.id) } : {}),
    },
  };
}

/** A getter discord.js may throw from on a bad payload: its field alone is marked unreadable. */
function attempt<T>(read: () => T): T | { unreadable: string } {
  try {
    return read();
  } catch (err) {
    return { unreadable: String(err) };
  }
}

type Attachments = Message['attachments'];
type Embeds = Message['embeds'];
type Stickers = Message['stickers'];

const attachmentsOf = (list: Attachments) =>
  [...list.values()].map((a) => ({
    id: a.id,
    url: a.url,
    name: a.name,
    size: a.size,
    contentType: a.contentType,
    duration: a.duration,
    width: a.width,
    height: a.height,
  }));
const stickersOf = (list: Stickers) =>
  [...list.values()].map((s) => ({ id: s.id, name: s.name, format: s.format, url: s.url }));
/** A bot's or webhook's card: title, description, fields, footer. */
const embedsOf = (list: Embeds) =>
  list.map((e) => ({
    type: e.data.type ?? null,
    title: e.title,
    description: e.description,
    url: e.url,
    author: e.author?.name ?? null,
    footer: e.footer?.text ?? null,
    fields: e.fields.map((f) => ({ name: f.name, value: f.value })),
  }));

/** The whole message: author, text, attachments, stickers, reply reference, mentions, forwards, cards, poll. */
export function snapshotOf(m: Message | PartialMessage): MessageSnapshot {
  const author = m.author;
  const refId = m.reference?.messageId;
  const cached = refId && m.channel && 'messages' in m.channel ? m.channel.messages.cache.get(refId) : undefined;
  const referenced = cached && !cached.partial ? cached : undefined;
  const guild = m.guildId ? m.client.guilds.resolve(m.guildId) : null;
  const content = m.content ?? '';
  return {
    ...whereOf(m),
    type: m.type,
    content: m.content,
    createdTimestamp: m.createdTimestamp,
    editedTimestamp: m.editedTimestamp,
    flags: m.flags.bitfield,
    webhookId: m.webhookId,
    applicationId: m.applicationId,
    author: author && { id: author.id, bot: author.bot, username: author.username, globalName: author.globalName },
    // Webhook authors are not guild members; member is null for them and in DMs.
    memberDisplayName: author && !m.webhookId ? (m.member?.displayName ?? null) : null,
    attachments: attempt(() => attachmentsOf(m.attachments)),
    stickers: attempt(() => stickersOf(m.stickers)),
    embeds: attempt(() => embedsOf(m.embeds)),
    reference: m.reference && {
      messageId: m.reference.messageId ?? null,
      channelId: m.reference.channelId ?? null,
      type: m.reference.type ?? null,
      // A forward's source channel, named when the client has it cached.
      channelName: attempt(() => {
        const c = m.reference?.channelId ? m.client.channels.cache.get(m.reference.channelId) : undefined;
        return c && 'name' in c ? (c.name ?? null) : null;
      }),
    },
    referenced: referenced
      ? {
          author: {
            id: referenced.author.id,
            bot: referenced.author.bot,
            username: referenced.author.username,
            globalName: referenced.author.globalName,
          },
          content: referenced.content,
          flags: referenced.flags.bitfield,
          // What the replied-to message carried (an image, a file, a sticker), as Discord sent it.
          attachments: attempt(() => attachmentsOf(referenced.attachments)),
          stickers: attempt(() => stickersOf(referenced.stickers)),
        }
      : null,
    // A forward carries the forwarded message's content in snapshots (message_snapshots).
    snapshots: attempt(() =>
      [...m.messageSnapshots.values()].map((s) => ({
        content: s.content ?? '',
        attachments: attempt(() => attachmentsOf(s.attachments)),
        stickers: attempt(() => stickersOf(s.stickers)),
        embeds: attempt(() => embedsOf(s.embeds)),
      })),
    ),
    poll: attempt(() =>
      m.poll
        ? {
            question: m.poll.question.text,
            answers: [...m.poll.answers.values()].map((a) => a.text ?? ''),
            allowMultiselect: m.poll.allowMultiselect,
            resultsFinalized: m.poll.resultsFinalized,
          }
        : null,
    ),
    mentionedUsers: attempt(() =>
      [...m.mentions.users.values()].map((u) => ({
        id: u.id,
        username: u.username,
        // The name people see: the guild nickname, else the global display name.
        displayName: m.mentions.members?.get(u.id)?.displayName ?? u.globalName ?? u.username,
      })),
    ),
    mentionedRoles: attempt(() => {
      // discord.js keeps only roles it has cached; the content carries every role mention.
      const ids = new Set([...m.mentions.roles.keys(), ...[...content.matchAll(/<@&(\d{15,21})>/g)].map((x) => x[1])]);
      return [...ids]
        .filter((id): id is string => typeof id === 'string')
        .map((id) => ({ id, name: m.mentions.roles.get(id)?.name ?? guild?.roles.cache.get(id)?.name ?? null }));
    }),
    mentionedChannels: attempt(() => {
      const named = new Map<string, string>();
      for (const c of m.mentions.crosspostedChannels.values()) named.set(c.channelId, c.name);
      for (const [id, c] of m.mentions.channels) if ('name' in c && c.name) named.set(id, c.name);
      const ids = new Set([...named.keys(), ...[...content.matchAll(/<#(\d{15,21})>/g)].map((x) => x[1])]);
      return [...ids]
        .filter((id): id is string => typeof id === 'string')
        .map((id) => {
          const c = named.get(id) ?? m.client.channels.cache.get(id);
          return { id, name: typeof c === 'string' ? c : c && 'name' in c ? (c.name ?? null) : null };
        });
    }),
  };
}
