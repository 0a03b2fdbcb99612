// The web channel's outbound port. A web client follows its reply through the stored record and
// the change feed (replyFollower.ts), so there is nothing to push: the text the core hands here
// was stored just before (persist-then-push), and that write is what the client sees. Each
// "platform message" is a reply chunk the record names by a fresh id, as other platforms' ids.
import { randomBytes } from 'node:crypto';
import type { OutboundChannel } from '../../src/delivery/outbound.js';
import { WEB_PLATFORM } from './platform.js';

export class WebOutbound implements OutboundChannel {
  readonly platform = WEB_PLATFORM;
  /** No platform limit: a reply is one message however long (BR-001 bounds only what people send). */
  readonly maxMessageChars = 1_000_000;

  send(): Promise<{ platformMessageId: string }> {
    return Promise.resolve({ platformMessageId: `web_${randomBytes(8).toString('hex')}` });
  }

  edit(): Promise<void> {
    return Promise.resolve();
  }

  typing(): Promise<void> {
    return Promise.resolve();
  }
}
