// The port through which replies reach a platform. Adapters implement it with the platform's
// REST API, so a worker needs no gateway connection (SPEC §7).
import type { ChatRef, Platform } from '../domain/model.js';

export interface OutboundChannel {
  readonly platform: Platform;
  /** Longest text one platform message may carry. */
  readonly maxMessageChars: number;
  send(chat: ChatRef, text: string): Promise<{ platformMessageId: string }>;
  edit(chat: ChatRef, platformMessageId: string, text: string): Promise<void>;
  typing(chat: ChatRef): Promise<void>;
}

export type Outbounds = Partial<Record<Platform, OutboundChannel>>;
