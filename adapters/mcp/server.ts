// The room's door for external agents (SPEC §8, seed 002): an MCP server at /mcp (official
// SDK, Streamable HTTP, stateless: a fresh server per request, so any API process can answer
// any call), bearer seat token per agent. Translation only: every tool calls the core's seat
// functions (src/rooms/externalSeat.ts), whose GatewayError codes come back as tool errors.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { McpServer, type ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../../src/log.js';
import { isGatewayError } from '../../src/errors.js';
import { BEARER_CHALLENGE, bearerToken } from '../../src/auth/bearer.js';
import type { Seat } from '../../src/store/seats.js';
import {
  fullMessage,
  openSeat,
  registerAgent,
  roomContext,
  roomOf,
  searchRoom,
  sendAsSeat,
  skipAsSeat,
  waitForTurn,
  type SeatDeps,
} from '../../src/rooms/externalSeat.js';
import { exportDialogue } from '../../src/ops/exportDialogue.js';
import { exportWithLink, type ExportLinks } from '../../src/ops/exportLinks.js';

export interface McpOptions {
  deps: SeatDeps & { timezone: string };
  log: Logger;
  /** Longest wait_for_turn, in seconds. */
  maxWaitSec?: number;
  /** Browser origins allowed (MCP_ALLOWED_ORIGINS); a request without `Origin` is not a browser's. */
  allowedOrigins: readonly string[];
  /** Signs export_chat_history's download link (absent: no key in this deployment, content only). */
  exportLinks?: ExportLinks | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The result as JSON text, and as structured content (an object, as MCP requires). */
const ok = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: isRecord(value) ? value : { result: value },
});

/** Tool errors are results (the agent reads the code); anything unexpected is logged, not shown. */
function failed(err: unknown, log: Logger, tool: string): CallToolResult {
  const body = isGatewayError(err)
    ? { code: err.code, message: err.message }
    : { code: 'INTERNAL', message: 'internal error' };
  if (!isGatewayError(err)) log.error({ err, tool }, 'mcp tool failed');
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }] };
}

/** `baseUrl`: the API's origin as this request reached it, for the download links handed out. */
function seatServer(o: McpOptions, seat: Seat, baseUrl: string): McpServer {
  const { deps, log } = o;
  const server = new McpServer({ name: 'rainbow-gateway-room', version: '1.0.0' });
  const tool = <S extends z.ZodRawShape>(
    name: string,
    description: string,
    inputSchema: S,
    run: (args: z.infer<z.ZodObject<S>>, signal: AbortSignal) => Promise<unknown>,
  ) =>
    server.registerTool(name, { description, inputSchema }, (async (args: unknown, extra: { signal: AbortSignal }) => {
      try {
        return ok(await run(args as z.infer<z.ZodObject<S>>, extra.signal));
      } catch (err) {
        return failed(err, log, name);
      }
      // The SDK types the callback by the shape's inferred args, which a generic S cannot name.
    }) as unknown as ToolCallback<S>);

  tool(
    'register_agent',
    'Join the room this seat was made for: your name, how you introduce yourself, and the room password if it has one.',
    {
      name: z.string().min(1).max(64),
      introduction: z.string().max(500).optional(),
      capabilities: z.array(z.string().max(100)).max(20).optional(),
      password: z.string().max(200).optional(),
    },
    (a) =>
      registerAgent(
        deps,
        seat,
        {
          name: a.name,
          ...(a.introduction ? { introduction: a.introduction } : {}),
          ...(a.capabilities ? { capabilities: a.capabilities } : {}),
          ...(a.password ? { password: a.password } : {}),
        },
        new Date(),
      ).then((r) => {
        seat.agentId = r.agentId;
        return r;
      }),
  );
  tool(
    'get_context',
    'The room, its members, the round, and what was said since you last spoke.',
    { limit: z.number().int().min(1).max(200).optional() },
    (a) => roomContext(deps, seat, a.limit ? { limit: a.limit } : {}),
  );
  tool(
    'wait_for_turn',
    'Wait until it is your turn to speak (or the time is up). Returns asked=true with canSkip when you are asked.',
    {
      timeoutSeconds: z
        .number()
        .int()
        .min(1)
        .max(o.maxWaitSec ?? 60)
        .optional(),
    },
    (a, signal) => waitForTurn(deps, seat, { timeoutMs: (a.timeoutSeconds ?? 30) * 1000, signal }),
  );
  tool(
    'send_message',
    'Say something in the room. Only when it is your turn; @Name calls on another agent.',
    { text: z.string() },
    (a) => sendAsSeat(deps, seat, a.text, new Date()),
  );
  tool(
    'skip_response',
    'Pass your turn. Not allowed when you were @mentioned.',
    { reason: z.string().max(200).optional() },
    () => skipAsSeat(deps, seat, new Date()),
  );
  tool(
    'search_messages',
    'Search this room’s messages for a word or phrase, newest first.',
    { query: z.string().min(1).max(200), limit: z.number().int().min(1).max(50).optional() },
    (a) => searchRoom(deps, seat, a.query, a.limit ?? 10).then((matches) => ({ matches })),
  );
  tool('get_full_message', 'One message of this room, whole.', { messageId: z.string().min(1).max(200) }, (a) =>
    fullMessage(deps, seat, a.messageId),
  );
  tool(
    'export_chat_history',
    'The room’s conversation as people saw it (invisible skips left out), as Markdown (text) or PDF (base64), with downloadUrl: a link that downloads the file until expiresAt.',
    { format: z.enum(['markdown', 'pdf']) },
    async (a) => {
      const room = await roomOf(deps, seat);
      const job = { dialogueId: room.dialogueId, format: a.format, visibleOnly: true, now: new Date(), baseUrl };
      if (o.exportLinks) return exportWithLink({ ...deps, exportLinks: o.exportLinks }, job);
      return exportDialogue(deps, job.dialogueId, job.format, job.now, { visibleOnly: true });
    },
  );
  return server;
}

async function handle(o: McpOptions, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  // Before the token: a page on a foreign origin must learn nothing (DNS rebinding, MCP transport spec).
  const origin = req.headers.origin;
  if (origin !== undefined && !o.allowedOrigins.includes(origin.toLowerCase())) {
    await reply.code(403).send({ error: { code: 'FORBIDDEN', message: `origin ${origin} is not allowed on /mcp` } });
    return;
  }
  let seat: Seat;
  try {
    seat = await openSeat(o.deps, bearerToken(req.headers.authorization));
  } catch {
    await reply
      .code(401)
      .header('www-authenticate', BEARER_CHALLENGE)
      .send({ error: { code: 'UNAUTHENTICATED', message: 'a valid seat token is required' } });
    return;
  }
  const server = seatServer(o, seat, `${req.protocol}://${req.host}`);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req.raw, reply.raw, req.body);
}

/** Fastify plugin: POST /mcp (stateless Streamable HTTP); GET and DELETE answer 405, as the spec allows. */
export function mcpRoutes(o: McpOptions): FastifyPluginCallback {
  return (app, _opts, done) => {
    app.post('/mcp', (req, reply) => handle(o, req, reply));
    const notAllowed = (_req: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(405)
        .header('allow', 'POST')
        .send({ error: { code: 'BAD_REQUEST', message: 'stateless server: POST only' } });
    app.get('/mcp', notAllowed);
    app.delete('/mcp', notAllowed);
    done();
  };
}
