// One entry per adapter: everything the composition root picks per platform, told by the adapter
// itself. Each adapters/<name>/index.ts exports one PlatformAdapter; app/platforms.ts registers
// the list and loops over it, so app/ names no platform.
import type { FastifyInstance } from 'fastify';
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import type { Store } from '../src/store/store.js';
import type { OutboundChannel } from '../src/delivery/outbound.js';
import type { MediaSource } from '../src/media/mediaSource.js';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import type { PlatformDescriptor, PlatformLimits } from '../src/platforms/platform.js';

/** The deployment's own account on the platform: where replies go and media comes from. */
export interface AdapterConnection {
  channel: OutboundChannel;
  /** false: the pacer never re-sends a send (the adapter retries its own sends safely). */
  retrySends?: boolean;
  media?: MediaSource;
}

/** What an adapter's inbound side is given by the gateway role. */
export interface InboundDeps {
  env: Env;
  log: Logger;
  store: Store;
  onInbound: (event: InboundEventInput) => Promise<void>;
  /** The process's HTTP server, when it has one (webhooks are mounted on it before it listens). */
  http: FastifyInstance | undefined;
}

/** Undoes what a started adapter started; the process runs these newest first. */
export type OnStop = (step: () => Promise<unknown>) => void;

/** An inbound side whose routes are mounted; started once the HTTP server listens. */
export interface MountedInbound {
  /** `serverUrl`: the HTTP server's base URL, when the process serves HTTP. */
  start(serverUrl: string | undefined, onStop: OnStop): Promise<{ webhookUrl?: string }>;
}

/** How platform updates reach the gateway role (polling, a webhook, a gateway connection). */
export interface AdapterInbound {
  /** Whether the gateway role needs the HTTP server for this platform (a webhook). */
  servesHttp(env: Env): boolean;
  mount(deps: InboundDeps): MountedInbound;
}

/** Agents' own accounts on the platform (SPEC §8: one bot per agent). */
export interface AgentAccounts {
  /** The account a token belongs to; throws when the platform refuses it. */
  whoIs(token: string): Promise<{ userId: string; username?: string }>;
  /** The agent's own (unpaced) channel for its token. */
  channel(token: string, log: Logger): OutboundChannel;
  maxMessageChars: number;
  /** Whether the agents' channels offer drafts. */
  drafts: boolean;
}

export interface PlatformAdapter {
  /** What the core knows of the platform; `platform.id` is its name. */
  readonly platform: PlatformDescriptor;
  /** Sending limits this deployment sets (e.g. from its env); absent: the descriptor's. */
  limits?(env: Env): PlatformLimits;
  /** For the health page: whether the deployment's account is configured, and how it is reached. */
  health(env: Env): { on: boolean; mode: string };
  /** The deployment's account; undefined (logged by the adapter) when not configured. */
  connect(env: Env, log: Logger): AdapterConnection | undefined;
  /** Absent: updates arrive some other way (the web channel's own API routes). */
  readonly inbound?: AdapterInbound;
  /** Absent: agents post through the deployment's account only. */
  agentAccounts?(env: Env): AgentAccounts;
  /** Whether an agent's posts show its own name and avatar (Discord persona webhooks). */
  personas?(env: Env): boolean;
  /** People here are the identity others link to (`/link`), never linked themselves. */
  readonly linkTarget?: boolean;
}
