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

/** The whole message: author, text, attachments, stickers, reply reference and mentions. */
export function snapshotOf(m: Message | PartialMessage): MessageSnapshot {
  const author = m.author;
  const refId = m.reference?.messageId;
  const cached = refId && m.channel && 'messages' in m.channel ? m.channel.messages.cache.get(refId) : undefined;
  const referenced = cached && !cached.partial ? cached : undefined;
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
    attachments: [...m.attachments.values()].map((a) => ({
      id: a.id,
      url: a.url,
      name: a.name,
      size: a.size,
      contentType: a.contentType,
      duration: a.duration,
      width: a.width,
      height: a.height,
    })),
    stickers: [...m.stickers.values()].map((s) => ({ id: s.id, name: s.name, format: s.format, url: s.url })),
    reference: m.reference && { messageId: m.reference.messageId ?? null, type: m.reference.type ?? null },
    referenced: referenced
      ? {
          author: {
            id: referenced.author.id,
            bot: referenced.author.bot,
            username: referenced.author.username,
            globalName: referenced.author.globalName,
          },
          content: referenced.content,
        }
      : null,
    mentionedUsers: [...m.mentions.users.values()].map((u) => ({ id: u.id, username: u.username })),
    mentionedRoles: [...m.mentions.roles.keys()],
  };
}
