// Seats of external agents (SPEC §8): a room's invitation for an agent that runs elsewhere. The
// bearer token is `<seatId>.<secret>`: the seat is read by `_id`, the secret compared with its
// stored SHA-256 in constant time; the token itself is shown once and never stored. A webhook
// seat also keeps the key its agent_turn events are signed with.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Collections } from './collections.js';

export interface Seat {
  _id: string;
  roomId: string;
  kind: 'mcp' | 'webhook';
  /** SHA-256 (hex) of the token's secret part. */
  secretHash: string;
  /** Webhook seats: where agent_turn events go, and the HMAC key they are signed with. */
  webhook?: { url: string; signingKey: string };
  /** The agent registered through this seat (register_agent), once it has. */
  agentId?: string;
  createdAt: Date;
  updatedAt: Date;
}

export const secretHashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export class SeatRepo {
  constructor(private readonly c: Collections) {}

  async create(seat: Seat): Promise<void> {
    await this.c.seats.insertOne(seat);
  }

  get(id: string): Promise<Seat | null> {
    return this.c.seats.findOne({ _id: id });
  }

  /** The seat a bearer token opens, or null (unknown seat, wrong secret, malformed token). */
  async byToken(token: string): Promise<Seat | null> {
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const seat = await this.get(token.slice(0, dot));
    if (!seat) return null;
    const given = Buffer.from(secretHashOf(token.slice(dot + 1)), 'hex');
    const stored = Buffer.from(seat.secretHash, 'hex');
    return given.length === stored.length && timingSafeEqual(given, stored) ? seat : null;
  }

  async setAgent(id: string, agentId: string, at: Date): Promise<void> {
    await this.c.seats.updateOne({ _id: id }, { $set: { agentId, updatedAt: at } });
  }
}
