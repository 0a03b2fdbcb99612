// /stop requests travel from the gateway process that received them to whichever worker is
// generating that dialogue's reply, over Redis pub/sub.
import type { Redis } from 'ioredis';

export class InterruptBus {
  private readonly channel: string;
  private subscriber: Redis | undefined;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.channel = `${prefix}:interrupts`;
  }

  async publish(dialogueId: string): Promise<void> {
    await this.redis.publish(this.channel, dialogueId);
  }

  async subscribe(onInterrupt: (dialogueId: string) => void): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (channel: string, dialogueId: string) => {
      if (channel === this.channel) onInterrupt(dialogueId);
    });
    await this.subscriber.subscribe(this.channel);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit();
  }
}
