// Moderation's gate among the stream stages: with replies checked nothing shows before the reply
// is complete; a clean reply is then let out whole through the stages after the gate (citations),
// a flagged one becomes the notice, marked withheld, with the original in the trace event only.
// With replies not checked, text streams as before. composeStages ends each stage exactly once.
import { describe, expect, it } from 'vitest';
import { composeStages, markerStage, type StreamStage } from '../../src/delivery/streamStage.js';
import { citationStage } from '../../src/knowledge/citationStage.js';
import { defaultConfig } from '../../src/domain/config.js';
import type { EffectiveConfig } from '../../src/store/config.js';
import { Moderator } from '../../src/moderation/moderator.js';
import { moderationStageFactory } from '../../src/moderation/moderationStage.js';
import { createLogger } from '../../src/log.js';
import type { ModerationEndpoint } from '../../src/moderation/endpoint.js';
import type { NumberedSource } from '../../src/domain/citations.js';

const source = (n: number): NumberedSource => ({
  n,
  chunkId: `kch_${n}`,
  documentId: `doc_${n}`,
  documentName: `doc${n}.md`,
  content: `passage ${n}`,
  score: 1,
});

/** A gate that holds everything and lets out the text upper-cased (stands for any judgement). */
function shoutingGate(): StreamStage & { ended: number } {
  let held = '';
  const g = {
    ended: 0,
    push: (d: string) => ((held += d), ''),
    end: () => (g.ended++, ''),
    release: () => Promise.resolve({ text: held.toUpperCase() }),
  };
  return g;
}

function moderator(keywords: string[], endpoint?: ModerationEndpoint) {
  const config = defaultConfig();
  config.moderation.keywords = keywords;
  const m = new Moderator({
    config: { get: () => Promise.resolve({ config, version: 1, ignored: [] } satisfies EffectiveConfig) },
    ...(endpoint ? { endpoint } : {}),
    timeoutMs: 1_000,
    log: createLogger('silent'),
  });
  return { m, config };
}

describe('composeStages with a gate', () => {
  it('shows nothing before release, then passes what the gate lets out through the later stages', async () => {
    const gate = shoutingGate();
    const stage = composeStages([markerStage({ names: ['PROGRESS'] }), gate, citationStage([source(1)])]);
    const shown = ['see [PROG', 'RESS:1:done] it [1] and [', '7] ok'].map((c) => stage.push(c));
    expect(shown).toEqual(['', '', '']);
    expect(stage.end()).toBe('');
    expect(stage.release).toBeDefined();
    // Markers were out before the gate; the invalid citation [7] is taken out after it.
    expect(await stage.release!()).toEqual({ text: 'SEE IT [1] AND OK' });
    expect(gate.ended).toBe(1);
  });

  it('has no release without a gate, and ends as before', () => {
    const stage = composeStages([markerStage({ names: ['PROGRESS'] })]);
    expect(stage.release).toBeUndefined();
    expect(stage.push('a [PROGRESS:1')).toBe('a ');
    expect(stage.end()).toBe('[PROGRESS:1');
  });

  it('carries the first withheld mark through two gates', async () => {
    const withholding: StreamStage = {
      push: () => '',
      end: () => '',
      release: () => Promise.resolve({ text: 'notice', withheld: { code: 'REPLY_WITHHELD', message: 'why' } }),
    };
    const stage = composeStages([withholding, shoutingGate()]);
    stage.push('anything');
    expect(stage.end()).toBe('');
    expect(await stage.release!()).toEqual({ text: 'NOTICE', withheld: { code: 'REPLY_WITHHELD', message: 'why' } });
  });
});

describe('moderationStageFactory', () => {
  it('streams as before when replies are not checked (no keywords, no endpoint; or check_replies off)', () => {
    const { m, config } = moderator([]);
    const make = moderationStageFactory(m, { locale: 'en' });
    const open = make({ sources: [], config });
    expect(open.push('hello')).toBe('hello');
    expect(open.release).toBeUndefined();
    config.moderation.keywords = ['x'];
    config.moderation.check_replies = false;
    expect(make({ sources: [], config }).push('hello')).toBe('hello');
    // Outside a reply (no config) it never holds anything.
    expect(make({ sources: [] }).push('hello')).toBe('hello');
  });

  it('holds a reply and lets it out whole when clean; recording nothing', async () => {
    const { m, config } = moderator(['casino']);
    const recorded: unknown[] = [];
    const stage = moderationStageFactory(m, { locale: 'en' })({
      sources: [],
      config,
      record: (kind, data) => Promise.resolve(recorded.push({ kind, data })),
    });
    expect(stage.push('A quiet ')).toBe('');
    expect(stage.push('evening.')).toBe('');
    expect(stage.end()).toBe('');
    expect(await stage.release!()).toEqual({ text: 'A quiet evening.' });
    expect(recorded).toEqual([]);
  });

  it('withholds a flagged reply: the notice instead, the error to store, the original only in the trace', async () => {
    const { m, config } = moderator(['casino']);
    const recorded: Array<{ kind: string; data: Record<string, unknown> }> = [];
    const stage = moderationStageFactory(m, { locale: 'zh-CN' })({
      sources: [],
      config,
      record: (kind, data) => Promise.resolve(recorded.push({ kind, data })),
    });
    stage.push('Try the Casino ');
    stage.push('downtown.');
    expect(await stage.release!()).toEqual({
      text: '抱歉，这条回复没有通过内容审核，已被拦下。',
      withheld: { code: 'REPLY_WITHHELD', message: 'moderation withheld the reply: keyword "casino"' },
    });
    expect(recorded).toEqual([
      {
        kind: 'moderation',
        data: {
          direction: 'out',
          flagged: true,
          by: 'keyword',
          matched: 'casino',
          categories: [],
          endpointFailed: null,
          text: 'Try the Casino downtown.',
        },
      },
    ]);
  });

  it('lets a reply through when the endpoint fails, and records that it went unchecked', async () => {
    const down: ModerationEndpoint = { model: 'm', classify: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const { m, config } = moderator([], down);
    const recorded: Array<{ kind: string; data: Record<string, unknown> }> = [];
    const stage = moderationStageFactory(m, { locale: 'en' })({
      sources: [],
      config,
      record: (kind, data) => Promise.resolve(recorded.push({ kind, data })),
    });
    stage.push('Hello!');
    expect(await stage.release!()).toEqual({ text: 'Hello!' });
    expect(recorded[0]?.data).toMatchObject({
      direction: 'out',
      flagged: false,
      endpointFailed: 'connect ECONNREFUSED',
    });
  });
});
