// The WebSocket half of the fake Discord: gateway v10, JSON encoding, no compression. It speaks
// what @discordjs/ws 1.2.3 needs for a discord.js Client to become ready — HELLO, IDENTIFY →
// READY (guilds unavailable) then one GUILD_CREATE per guild, heartbeat ACKs — plus RESUME with
// replay of missed dispatches. Dispatches honour the session's intents like Discord: no guild
// messages without GUILD_MESSAGES, no DMs without DIRECT_MESSAGES, and empty content without
// MESSAGE_CONTENT unless the bot is mentioned.
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { APIUser, GatewayGuildCreateDispatchData } from 'discord.js';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';

const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  Resume: 6,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;
export const Intent = {
  Guilds: 1 << 0,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

const frameSchema = z.looseObject({ op: z.number().int(), d: z.unknown() });
const identifySchema = z.looseObject({
  token: z.string(),
  intents: z.number().int().nonnegative(),
  properties: z.looseObject({ os: z.string(), browser: z.string(), device: z.string() }),
  shard: z.tuple([z.number().int(), z.number().int()]).optional(),
});
const resumeSchema = z.looseObject({ token: z.string(), session_id: z.string(), seq: z.number().int().nullable() });
const messageEventSchema = z.looseObject({
  guild_id: z.string().optional(),
  author: z.looseObject({ id: z.string() }).optional(),
  mentions: z.array(z.looseObject({ id: z.string() })).optional(),
});

interface Frame {
  op: number;
  t: string | null;
  s: number | null;
  d: unknown;
}
interface Session {
  id: string;
  intents: number;
  seq: number;
  /** Every dispatch of the session, for replay on RESUME (bounded). */
  log: Frame[];
  socket: WebSocket | undefined;
}

export interface FakeGatewayOptions {
  token: string;
  botUser: APIUser;
  guilds: GatewayGuildCreateDispatchData[];
  heartbeatIntervalMs: number;
  /** ws:// URL of this gateway (READY's resume_gateway_url). */
  url: string;
  /** Privileged intents enabled for the application in the developer portal (others close 4014). */
  privilegedIntents: number;
}

/** Intents Discord only grants when switched on for the application. */
const PRIVILEGED = (1 << 1) | (1 << 8) | Intent.MessageContent; // GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT

export class FakeGateway {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Map<string, Session>();
  identifies = 0;
  resumes = 0;
  /** Every frame a client sent (heartbeats included), for assertions on the protocol. */
  readonly received: Array<{ op: number; d: unknown }> = [];

  constructor(
    server: Server,
    private readonly o: FakeGatewayOptions,
  ) {
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (socket, req) => this.onConnection(socket, req.url ?? '/'));
  }

  /** Sessions with an open socket. */
  get connected(): number {
    return [...this.sessions.values()].filter((s) => s.socket !== undefined).length;
  }

  /** Pushes a dispatch to every session allowed to see it (buffered for a disconnected session). */
  dispatch(t: string, d: object): void {
    for (const session of this.sessions.values()) {
      const visible = this.visibleTo(session, t, d);
      if (visible !== undefined) this.send(session, t, visible);
    }
  }

  /** Closes every socket from the server side (sessions stay resumable), e.g. code 4000 or 1001. */
  dropConnections(code = 4000): void {
    for (const session of this.sessions.values()) {
      session.socket?.close(code, 'fake: connection dropped');
      session.socket = undefined;
    }
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onConnection(socket: WebSocket, url: string): void {
    const params = new URL(url, 'ws://x').searchParams;
    if (params.get('v') !== '10') return socket.close(4012, 'Invalid API version');
    if (params.get('encoding') !== 'json' || params.has('compress'))
      return socket.close(4002, 'Error while decoding payload');
    let session: Session | undefined;
    const raw = (frame: Frame): void => socket.send(JSON.stringify(frame));
    raw({ op: Op.Hello, t: null, s: null, d: { heartbeat_interval: this.o.heartbeatIntervalMs } });

    socket.on('message', (data: Buffer, isBinary: boolean) => {
      let frame: z.infer<typeof frameSchema>;
      try {
        if (isBinary) throw new Error('binary frames are for etf/compression');
        frame = frameSchema.parse(JSON.parse(data.toString('utf8')));
      } catch {
        return socket.close(4002, 'Error while decoding payload');
      }
      this.received.push({ op: frame.op, d: frame.d });
      switch (frame.op) {
        case Op.Heartbeat:
          return raw({ op: Op.HeartbeatAck, t: null, s: null, d: null });
        case Op.Identify: {
          if (session) return socket.close(4005, 'Already authenticated');
          const identify = identifySchema.safeParse(frame.d);
          if (!identify.success) return socket.close(4002, 'Error while decoding payload');
          if (identify.data.token !== this.o.token) return socket.close(4004, 'Authentication failed');
          if (identify.data.intents & PRIVILEGED & ~this.o.privilegedIntents)
            return socket.close(4014, 'Disallowed intent(s).');
          this.identifies++;
          session = { id: randomBytes(16).toString('hex'), intents: identify.data.intents, seq: 0, log: [], socket };
          this.sessions.set(session.id, session);
          this.ready(session);
          return;
        }
        case Op.Resume: {
          const resume = resumeSchema.safeParse(frame.d);
          if (!resume.success) return socket.close(4002, 'Error while decoding payload');
          if (resume.data.token !== this.o.token) return socket.close(4004, 'Authentication failed');
          const known = this.sessions.get(resume.data.session_id);
          if (!known) return raw({ op: Op.InvalidSession, t: null, s: null, d: false });
          this.resumes++;
          session = known;
          session.socket = socket;
          for (const missed of session.log.filter((f) => (f.s ?? 0) > (resume.data.seq ?? 0))) raw(missed);
          this.send(session, 'RESUMED', {});
          return;
        }
        case Op.PresenceUpdate:
          return;
        default:
          return socket.close(4001, 'Unknown opcode');
      }
    });
    socket.on('close', () => {
      if (session?.socket === socket) session.socket = undefined;
    });
  }

  private ready(session: Session): void {
    const { botUser, guilds, url } = this.o;
    this.send(session, 'READY', {
      v: 10,
      user: { ...botUser, verified: true, mfa_enabled: false },
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: url,
      shard: [0, 1],
      application: { id: botUser.id, flags: 0 },
    });
    if (session.intents & Intent.Guilds) for (const guild of guilds) this.send(session, 'GUILD_CREATE', guild);
  }

  private send(session: Session, t: string, d: unknown): void {
    const frame: Frame = { op: Op.Dispatch, t, s: ++session.seq, d };
    session.log.push(frame);
    if (session.log.length > 1000) session.log.shift();
    session.socket?.send(JSON.stringify(frame));
  }

  /** What Discord would deliver of this dispatch to a session with these intents. */
  private visibleTo(session: Session, t: string, d: object): object | undefined {
    if (t === 'GUILD_CREATE' || t.startsWith('CHANNEL_') || t.startsWith('THREAD_')) {
      return session.intents & Intent.Guilds ? d : undefined;
    }
    if (!t.startsWith('MESSAGE_')) return d;
    const m = messageEventSchema.safeParse(d);
    if (!m.success) return d; // malformed test payloads go out as they are
    const inGuild = m.data.guild_id !== undefined;
    if (!(session.intents & (inGuild ? Intent.GuildMessages : Intent.DirectMessages))) return undefined;
    if (t === 'MESSAGE_DELETE' || t === 'MESSAGE_DELETE_BULK') return d;
    const botId = this.o.botUser.id;
    const exempt = !inGuild || m.data.author?.id === botId || (m.data.mentions ?? []).some((u) => u.id === botId);
    if (session.intents & Intent.MessageContent || exempt) return d;
    return { ...d, content: '', embeds: [], attachments: [], components: [] };
  }
}
