// Real Discord captures (test/fixtures/captures/dc-*.json) fed the way production receives them:
// the fake gateway dispatches the capture's MESSAGE_CREATE into an unmodified discord.js Client
// (DiscordGateway), whose guild and channel are the capture's own, so nothing of the payload is
// rewritten. What the gateway passes on to the core, and what it ignores, is collected.
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { z } from 'zod';
import { DiscordGateway } from '../../adapters/discord/gateway.js';
import { inboundEventSchema, type InboundEvent } from '../../src/ingest/inboundEvent.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import { makeWorld, type DiscordWorld } from '../fixtures/discordDispatches.js';
import { eventually } from './testEnv.js';

const captureSchema = z.object({
  t: z.string(),
  d: z.looseObject({ id: z.string(), channel_id: z.string(), guild_id: z.string() }),
});
export type Capture = z.infer<typeof captureSchema>;

/** A guild capture, as stored (byte for byte) under test/fixtures/captures/. */
export function readCapture(name: string): Capture {
  const raw = readFileSync(new URL(`../fixtures/captures/${name}`, import.meta.url), 'utf8');
  return captureSchema.parse(JSON.parse(raw));
}

/**
 * The fake's world (our bot, two people, a guild with #general) whose guild and #general carry
 * the capture's ids. Snowflakes are plain strings of equal length, so replacing them in the
 * serialised world renames every reference (roles, channels, thread parent) consistently.
 */
function worldAround(c: Capture): DiscordWorld {
  const w = makeWorld();
  const renamed = JSON.stringify(w).replaceAll(w.guildId, c.d.guild_id).replaceAll(w.generalId, c.d.channel_id);
  return JSON.parse(renamed) as DiscordWorld; // the same object with two ids renamed
}

export interface CaptureRig {
  fake: FakeDiscord;
  /** The event the gateway passed on for a platform message (validated as the core reads it). */
  eventFor(id: string, kind?: InboundEvent['kind']): Promise<InboundEvent>;
  /** Whether the gateway passed anything on for a platform message. */
  eventsFor(id: string): InboundEvent[];
  /** Why the gateway ignored a platform message, if it did. */
  ignoredWhy(id: string): string | undefined;
  stop(): Promise<void>;
}

export async function startCaptureRig(c: Capture): Promise<CaptureRig> {
  const fake = await startFakeDiscord({ world: worldAround(c) });
  const events: InboundEvent[] = [];
  const logLines: Array<Record<string, unknown>> = [];
  const gateway = new DiscordGateway({
    token: fake.token,
    apiRoot: fake.apiRoot,
    cdnRoot: fake.baseUrl,
    log: pino(
      { level: 'debug' },
      { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
    ),
    onInbound: (e) => {
      events.push(inboundEventSchema.parse(e)); // what the core reads
      return Promise.resolve();
    },
  });
  await gateway.start();
  const eventsFor = (id: string) => events.filter((e) => e.platformMessageId === id);
  return {
    fake,
    eventFor: (id, kind = 'message') =>
      eventually(() => Promise.resolve(eventsFor(id).find((e) => e.kind === kind)), 10_000, `${kind} event for ${id}`),
    eventsFor,
    ignoredWhy: (id) => {
      const line = logLines.find((l) => l.msg === 'discord message ignored' && l.messageId === id);
      return typeof line?.ignored === 'string' ? line.ignored : undefined;
    },
    async stop() {
      await gateway.stop();
      await fake.close();
    },
  };
}
