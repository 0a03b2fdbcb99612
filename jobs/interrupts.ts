// /stop requests and room answer deadlines travel from the process that decided them to whichever
// worker is generating that dialogue's reply, over Redis pub/sub.
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Interrupt } from '../src/domain/replyJob.js';

const payloadSchema = z.union([
  z.object({ dialogueId: z.string().min(1), reason: z.literal('interrupted') }),
  z.object({ dialogueId: z.string().min(1), reason: z.literal('deadline'), turnId: z.string().min(1) }),
]);

export class InterruptBus {
  private readonly channel: string;
  private subscriber: Redis | undefined;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.channel = `${prefix}:interrupts`;
  }

  async publish(dialogueId: string, why: Interrupt = { reason: 'interrupted' }): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify({ dialogueId, ...why }));
  }

  async subscribe(onInterrupt: (dialogueId: string, why: Interrupt) => void): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const parsed = parse(message);
      // A bare dialogue id: a /stop from a process of the version before.
      if (!parsed) onInterrupt(message, { reason: 'interrupted' });
      else {
        const { dialogueId, ...why } = parsed;
        onInterrupt(dialogueId, why);
      }
    });
    await this.subscriber.subscribe(this.channel);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit();
  }
}

function parse(message: string): z.infer<typeof payloadSchema> | undefined {
  try {
    const r = payloadSchema.safeParse(JSON.parse(message));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}
