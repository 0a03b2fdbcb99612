// The small REST door for webhook agents (SPEC §8): having been POSTed an agent_turn event,
// they answer here with their seat token — send a message, skip, or read the context. The same
// core functions as the MCP tools; errors come back with their stable code and an HTTP status.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../../src/log.js';
import { GatewayError, HTTP_STATUS, isGatewayError } from '../../src/errors.js';
import {
  openSeat,
  registerAgent,
  roomContext,
  sendAsSeat,
  skipAsSeat,
  type SeatDeps,
} from '../../src/rooms/externalSeat.js';
import type { Seat } from '../../src/store/seats.js';
import { BEARER_CHALLENGE, bearerToken } from '../../src/auth/bearer.js';

const sendBody = z.object({ text: z.string() });
const registerBody = z.object({
  name: z.string().min(1).max(64),
  introduction: z.string().max(500).optional(),
  capabilities: z.array(z.string().max(100)).max(20).optional(),
  password: z.string().max(200).optional(),
});

export function seatRestRoutes(o: { deps: SeatDeps; log: Logger }): FastifyPluginCallback {
  const run = async (req: FastifyRequest, reply: FastifyReply, act: (seat: Seat) => Promise<unknown>) => {
    try {
      const seat = await openSeat(o.deps, bearerToken(req.headers.authorization));
      return await reply.code(200).send(await act(seat));
    } catch (err) {
      if (!isGatewayError(err)) {
        o.log.error({ err }, 'seat request failed');
        return reply.code(500).send({ error: { code: 'INTERNAL', message: 'internal error' } });
      }
      if (HTTP_STATUS[err.code] === 401) void reply.header('www-authenticate', BEARER_CHALLENGE);
      return reply.code(HTTP_STATUS[err.code]).send({ error: { code: err.code, message: err.message } });
    }
  };
  return (app, _opts, done) => {
    app.post('/agents/register', (req, reply) =>
      run(req, reply, (seat) => {
        const body = registerBody.safeParse(req.body);
        if (!body.success)
          return Promise.reject(
            new GatewayError(
              'BAD_REQUEST',
              'body: {"name": "…", "introduction"?, "capabilities"?: ["…"], "password"?}',
            ),
          );
        const { name, introduction, capabilities, password } = body.data;
        const extra = { ...(introduction ? { introduction } : {}), ...(capabilities ? { capabilities } : {}) };
        return registerAgent(o.deps, seat, { name, ...extra, ...(password ? { password } : {}) }, new Date());
      }),
    );
    app.get('/agents/context', (req, reply) => run(req, reply, (seat) => roomContext(o.deps, seat)));
    app.post('/agents/send_message', (req, reply) =>
      run(req, reply, (seat) => {
        const body = sendBody.safeParse(req.body);
        if (!body.success) return Promise.reject(new GatewayError('BAD_REQUEST', 'body: {"text": "…"}'));
        return sendAsSeat(o.deps, seat, body.data.text, new Date());
      }),
    );
    app.post('/agents/skip_response', (req, reply) => run(req, reply, (seat) => skipAsSeat(o.deps, seat, new Date())));
    done();
  };
}
