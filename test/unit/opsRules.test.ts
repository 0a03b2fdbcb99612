// Pure parts of the operator actions: who may open a turn, what a failed platform call is
// called, the live/archive merge of an export and its streaming base64.
import { describe, expect, it } from 'vitest';
import { turnPartiesProblem } from '../../src/ops/turnParties.js';
import { deliveryFailureCode, senderIdOf } from '../../src/ops/postMessage.js';
import { PlatformCallError, PlatformRateLimitedError } from '../../src/delivery/outbound.js';
import { mergeByTime } from '../../src/export/mergeByTime.js';
import { Base64Sink } from '../../src/export/base64Sink.js';

describe('turn parties', () => {
  const dialogue = { _id: 'dlg_1', humanIds: ['hum_a'], agentIds: ['agt_r'] };
  it('accepts two different participants of the dialogue, and system without membership', () => {
    expect(turnPartiesProblem(dialogue, { role: 'ai', id: 'agt_r' }, { role: 'human', id: 'hum_a' })).toBeNull();
    expect(turnPartiesProblem(dialogue, { role: 'system', id: 'ops' }, { role: 'human', id: 'hum_a' })).toBeNull();
  });
  it('refuses outsiders and a party answering itself', () => {
    expect(turnPartiesProblem(dialogue, { role: 'human', id: 'hum_b' }, { role: 'ai', id: 'agt_r' })).toMatch(
      /initiator hum_b is not a human/,
    );
    expect(turnPartiesProblem(dialogue, { role: 'human', id: 'hum_a' }, { role: 'ai', id: 'agt_x' })).toMatch(
      /responder agt_x is not an agent/,
    );
    expect(turnPartiesProblem(dialogue, { role: 'human', id: 'hum_a' }, { role: 'human', id: 'hum_a' })).toMatch(
      /must differ/,
    );
  });
});

describe('posted messages', () => {
  it('are signed by the operator token or as system', () => {
    expect(senderIdOf('operator', 'alice')).toBe('operator:alice');
    expect(senderIdOf('system', 'alice')).toBe('system');
  });
  it('name a platform failure by what retrying could do', () => {
    const refused = new PlatformCallError('telegram', 400, 'Bad Request: chat not found');
    expect(deliveryFailureCode(refused)).toBe('PLATFORM_REJECTED');
    expect(deliveryFailureCode(new PlatformCallError('discord', 503, 'Service Unavailable'))).toBe(
      'PLATFORM_UNAVAILABLE',
    );
    expect(deliveryFailureCode(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBe(
      'PLATFORM_UNAVAILABLE',
    );
    expect(deliveryFailureCode(new PlatformRateLimitedError('telegram', 1000))).toBe('PLATFORM_RATE_LIMITED');
    expect(deliveryFailureCode(Object.assign(new Error('no budget'), { code: 'DELIVERY_BUDGET_TIMEOUT' }))).toBe(
      'DELIVERY_BUDGET_TIMEOUT',
    );
  });
});

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const i of items) yield await Promise.resolve(i);
}
const m = (id: string, t: number) => ({ _id: id, createdAt: new Date(t) });

describe('mergeByTime', () => {
  it('interleaves two ordered streams by time, then id, and yields a message met in both once', async () => {
    const live = [m('b', 2), m('c', 2), m('e', 5)];
    const archive = [m('a', 1), m('c', 2), m('d', 3)];
    const out: string[] = [];
    for await (const x of mergeByTime(from(live), from(archive))) out.push(x._id);
    expect(out).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('closes both streams when the consumer stops early', async () => {
    let closed = 0;
    const tracked = (items: Array<{ _id: string; createdAt: Date }>) =>
      (async function* () {
        try {
          for (const i of items) yield await Promise.resolve(i);
        } finally {
          closed++;
        }
      })();
    for await (const x of mergeByTime(tracked([m('a', 1), m('c', 3)]), tracked([m('b', 2), m('d', 4)])))
      if (x._id === 'b') break;
    expect(closed).toBe(2);
  });
});

describe('Base64Sink', () => {
  it('encodes chunks of any size exactly as the whole would be', () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 37) % 256));
    for (const size of [1, 2, 3, 7, 64, 999]) {
      const sink = new Base64Sink();
      for (let i = 0; i < bytes.length; i += size) sink.push(bytes.subarray(i, i + size));
      expect(sink.end()).toBe(bytes.toString('base64'));
      expect(sink.byteLength).toBe(1000);
    }
  });
});
