// The web channel's REST + SSE API (SPEC §12, seed 004) under /api. Translation only: a posted
// message becomes an InboundEvent through the same handleInbound as Telegram's and Discord's,
// and its reply is followed through the stored record (replyFollower.ts). Errors are
// `{error: {code, message}}` with seed 004's statuses; nothing else reaches a client.
import type { FastifyError, FastifyPluginCallback, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../../src/log.js';
import type { OpsToken } from '../../src/config/env.js';
import type { Dialogue, Message } from '../../src/domain/model.js';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';
import type { IngestResult } from '../../src/ingest/ingest.js';
import type { Store } from '../../src/store/store.js';
import { GatewayError, type ErrorCode } from '../../src/errors.js';
import { checkInboundText } from '../../src/domain/content.js';
import { newId } from '../../src/domain/ids.js';
import { humanIdOf } from '../../src/store/participants.js';
import { openDialogue } from '../../src/ops/openDialogue.js';
import type { LinkCodes } from '../../src/store/linkCodes.js';
import { replyIdOf } from '../../src/domain/aiMessage.js';
import { WEB_PLATFORM } from './platform.js';
import { requireCaller, type WebCaller } from './webAuth.js';
import { sendCoded, sendError } from './httpErrors.js';
import { conversationDialogueId, conversationView, isConversationId, messageView, webChat } from './conversations.js';
import { parseEventId } from './streamEvents.js';
import { followReply } from './replyFollower.js';
import { streamEvents } from './sse.js';
import type { DialogueFeed } from './feedSubscriber.js';

export interface WebApiDeps {
  store: Store;
  opsTokens: OpsToken[];
  log: Logger;
  feed: DialogueFeed;
  /** The gateway's one way in (src/inbound/handleInbound.ts). */
  handleInbound(event: InboundEventInput): Promise<IngestResult>;
  /** Codes a web user sends as `/link CODE` to the bot, to be one person on both (SPEC §12). */
  linkCodes: Pick<LinkCodes, 'issue'>;
  /** FR-008: stop the reply being generated in this dialogue, if one is. */
  interrupt(dialogueId: string): Promise<boolean>;
  /** BR-006: the dialogue and everything under it (src/ops/deleteDialogue.ts). */
  deleteDialogue(dialogueId: string): Promise<void>;
  /** How long a stream waits for its reply to end before telling the client to look later. */
  maxWaitMs: number;
  /** How often a stream re-reads its reply without an announcement. */
  pollMs: number;
}

/** The history a conversation returns (BR-002 keeps at most 1 000 live messages anyway). */
const HISTORY_LIMIT = 1_000;
const LIST_LIMIT = 200;

const createBody = z.object({ agentId: z.string().min(1).max(100).optional() }).strict();
const messageBody = z.object({
  content: z.unknown().optional(),
  /** The client's id for this message: posting it again (a retry) is answered once. */
  clientMessageId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/)
    .optional(),
});

const fail = (code: ErrorCode, message: string) => new GatewayError(code, message);

export function webApiRoutes(deps: WebApiDeps): FastifyPluginCallback {
  const { store } = deps;

  const callers = { opsTokens: deps.opsTokens, webUsers: store.webUsers };
  const callerOf = (req: FastifyRequest) => requireCaller(req, callers, 'read');
  const changer = (req: FastifyRequest) => requireCaller(req, callers, 'talk');
  /**
   * The caller's conversation, or a web room they may enter; anyone else's is as unknown as a
   * missing one.
   */
  const conversationOf = async (caller: WebCaller, id: string): Promise<Dialogue> => {
    const d = isConversationId(id) ? await store.dialogues.get(conversationDialogueId(id)) : null;
    if (d && (d.humanIds.includes(humanIdOf(caller.identity)) || (await mayEnterRoom(caller, d)))) return d;
    throw fail('CONVERSATION_NOT_FOUND', `no conversation with id ${id}`);
  };
  /** A web room is a group anyone may join, as a Telegram group is; a password keeps web users out. */
  const mayEnterRoom = async (caller: WebCaller, d: Dialogue): Promise<boolean> => {
    const room = d.roomId ? await store.rooms.get(d.roomId) : null;
    return !!room && (caller.role !== 'web_user' || !room.passwordHash);
  };
  const idParam = (req: FastifyRequest) => (req.params as { id: string }).id;

  return (app, _opts, done) => {
    app.setErrorHandler((err: FastifyError, req, reply) => sendError(deps.log, req, reply, err, 'MESSAGE_TOO_LONG'));
    // A resume has no body, yet clients (EventSource over fetch, request wrappers) still send
    // `content-type: application/json`: an empty body is no body, not a malformed one.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, next) => {
      const text = String(body);
      if (text.trim() === '') return next(null, undefined);
      try {
        next(null, JSON.parse(text));
      } catch {
        next(Object.assign(new Error('the body is not valid JSON'), { statusCode: 400 }), undefined);
      }
    });

    app.post('/conversations', async (req, reply) => {
      const caller = await changer(req);
      const body = createBody.safeParse(req.body ?? {});
      if (!body.success) throw fail('BAD_REQUEST', 'body: {"agentId"?: "…"}');
      const d = await openDialogue(store, {
        chat: webChat(newId('conv')),
        identity: caller.identity,
        ...(body.data.agentId ? { agentId: body.data.agentId } : {}),
        at: new Date(),
      });
      return reply.code(201).send(conversationView(d));
    });

    app.get('/conversations', async (req, reply) => {
      const caller = await callerOf(req);
      const list = await store.pages.of('dialogues')(
        { 'chat.platform': WEB_PLATFORM, humanIds: humanIdOf(caller.identity) },
        { lastActivityAt: -1, _id: -1 },
        LIST_LIMIT,
      );
      return reply.send({ conversations: list.map(conversationView) });
    });

    app.get('/conversations/:id', async (req, reply) => {
      const d = await conversationOf(await callerOf(req), idParam(req));
      const newestFirst = await store.pages.of('messages')(
        { dialogueId: d._id, visible: true },
        { createdAt: -1, _id: -1 },
        HISTORY_LIMIT,
      );
      const messages = newestFirst.reverse().map((m) => messageView(m, d.chat.chatId, !!d.roomId));
      return reply.send({ conversation: conversationView(d), messages });
    });

    app.delete('/conversations/:id', async (req, reply) => {
      const d = await conversationOf(await changer(req), idParam(req));
      await deps.deleteDialogue(d._id);
      return reply.code(204).send();
    });

    app.post('/conversations/:id/abort', async (req, reply) => {
      const d = await conversationOf(await changer(req), idParam(req));
      return reply.send({ aborted: await deps.interrupt(d._id) });
    });

    app.post('/link-code', async (req, reply) => {
      const caller = await changer(req);
      const at = new Date();
      const human = await store.participants.resolveHuman(caller.identity, at);
      const { code, expiresAt } = await deps.linkCodes.issue(human._id, at);
      return reply.code(201).send({ code, expiresAt: expiresAt.toISOString(), send: `/link ${code}` });
    });

    app.post('/conversations/:id/messages', async (req, reply) => {
      const caller = await changer(req);
      const d = await conversationOf(caller, idParam(req));
      const resume = req.headers['last-event-id'];
      const target = resume !== undefined ? await resumed(d, resume) : await posted(d, caller, req.body);
      if ('answer' in target) return reply.code(target.status ?? 200).send(target.answer);
      // The client had the reply's last event: nothing more will come (204 ends an EventSource).
      if ('ended' in target) return reply.code(204).send();
      const { replyId, offset } = target;
      const gone = new AbortController();
      reply.raw.on('close', () => gone.abort());
      const events = followReply({
        dialogueId: d._id,
        replyId,
        offset,
        resumed: resume !== undefined,
        read: (id) => store.messages.get(id),
        feed: deps.feed,
        maxWaitMs: deps.maxWaitMs,
        pollMs: deps.pollMs,
        signal: gone.signal,
      });
      // The status waits for the reply's first event: a reply that fails before saying
      // anything is answered with its error and status, as seed 004 lists them.
      const first = await events.next();
      if (first.done) return reply.code(204).send(); // the client left before anything came
      if (first.value.event === 'error') {
        const { code, message } = first.value.data;
        return sendCoded(reply, code, message);
      }
      reply.hijack();
      await streamEvents(reply.raw, first.value, events, gone.signal);
    });

    done();
  };

  /** A new message: checked (BR-001), ingested like any platform's, then its turn's reply. */
  async function posted(
    d: Dialogue,
    caller: WebCaller,
    raw: unknown,
  ): Promise<{ replyId: string; offset: number } | { answer: unknown; status?: number }> {
    const body = messageBody.safeParse(raw ?? {});
    if (!body.success) throw fail('BAD_REQUEST', 'body: {"content": "…", "clientMessageId"?: "…"}');
    const { content, clientMessageId } = body.data;
    if (content !== undefined && typeof content !== 'string') throw fail('BAD_REQUEST', '"content" must be a string');
    const check = checkInboundText(content);
    if (!check.ok) throw fail(check.code, check.code === 'MESSAGE_TOO_LONG' ? 'at most 10 000 characters' : 'empty');
    const r = await deps.handleInbound({
      platform: WEB_PLATFORM,
      chat: { chatId: d.chat.chatId, kind: d.roomId ? 'group' : 'private' },
      platformMessageId: clientMessageId ?? newId('wmsg'),
      sender: {
        userId: caller.identity.userId,
        isBot: false,
        // The web channel's people hold a token an operator issued: that is their way in (SPEC §14).
        vouched: true,
        ...(caller.identity.displayName ? { displayName: caller.identity.displayName } : {}),
      },
      text: check.text,
      sentAt: new Date(),
    });
    // A room answers with a round of several replies: the client reads them from the conversation.
    if (d.roomId && (r.kind === 'accepted' || r.kind === 'context'))
      return { answer: { messageId: r.messageId, round: r.kind === 'accepted' }, status: 202 };
    switch (r.kind) {
      case 'accepted':
        return { replyId: replyIdOf(r.turnId), offset: 0 };
      case 'duplicate':
        return replyOfStored(r.messageId);
      case 'rejected':
        throw fail(r.code, 'the message was refused');
      case 'refused':
        throw fail(r.code, `the message was recorded and not answered (${r.reason})`);
      case 'command':
        // Commands (/new, /summary, /stop …) are answered by a stored notice, not the model.
        return { answer: { command: r.name, messageId: r.messageId } };
      default:
        throw new Error(`web message ingested as ${r.kind}`);
    }
  }

  /** The reply a retried message's turn got. */
  async function replyOfStored(messageId: string): Promise<{ replyId: string; offset: number } | { answer: unknown }> {
    const m = await store.messages.get(messageId);
    if (!m?.turnId) return { answer: { messageId, duplicate: true } };
    return { replyId: replyIdOf(m.turnId), offset: 0 };
  }

  /** Last-Event-ID: the same reply from where the client stopped. */
  async function resumed(
    d: Dialogue,
    lastEventId: string | string[],
  ): Promise<{ replyId: string; offset: number } | { ended: true }> {
    const at = parseEventId(Array.isArray(lastEventId) ? lastEventId[0] : lastEventId);
    if (!at) throw fail('BAD_REQUEST', 'Last-Event-ID is not an id this API sent');
    const m: Message | null = await store.messages.get(at.messageId);
    if (m?.dialogueId !== d._id || m.senderRole !== 'ai')
      throw fail('MESSAGE_NOT_FOUND', `no reply ${at.messageId} in this conversation`);
    if (at.ended) return { ended: true };
    return { replyId: m._id, offset: at.offset };
  }
}
