// A seat for an external agent in a room (SPEC §8): its bearer token (and, for a webhook agent,
// the key its agent_turn events are signed with) is returned here once; only the token's hash
// is kept.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { newId } from '../domain/ids.js';
import { GatewayError } from '../errors.js';
import type { Store } from '../store/store.js';
import { secretHashOf, type Seat } from '../store/seats.js';
import { parseInput } from '../ops/input.js';

const seatInput = z.object({
  roomId: z.string().min(1).max(200),
  kind: z.enum(['mcp', 'webhook']),
  webhookUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});

export interface NewSeat {
  seatId: string;
  /** `<seatId>.<secret>`: shown once. */
  token: string;
  /** Webhook seats: the HMAC key of agent_turn events, shown once. */
  signingKey?: string;
}

export async function createSeat(
  store: Store,
  input: { roomId: string; kind: string; webhookUrl?: string | undefined },
  now: Date,
): Promise<NewSeat> {
  const o = parseInput(seatInput, input);
  if (o.kind === 'webhook' && !o.webhookUrl) throw new GatewayError('BAD_REQUEST', 'a webhook seat needs webhookUrl');
  if (!(await store.rooms.get(o.roomId))) throw new GatewayError('ROOM_NOT_FOUND', `room ${o.roomId} not found`);
  const seatId = newId('seat', now);
  const secret = randomBytes(24).toString('base64url');
  const signingKey = o.kind === 'webhook' ? randomBytes(32).toString('base64url') : undefined;
  const seat: Seat = {
    _id: seatId,
    roomId: o.roomId,
    kind: o.kind,
    secretHash: secretHashOf(secret),
    ...(signingKey && o.webhookUrl ? { webhook: { url: o.webhookUrl, signingKey } } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await store.seats.create(seat);
  return { seatId, token: `${seatId}.${secret}`, ...(signingKey ? { signingKey } : {}) };
}
