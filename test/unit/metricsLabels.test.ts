// Label values stay within fixed sets: anything unexpected is "other", so a new code or a
// strange platform can never mint unbounded series.
import { describe, expect, it } from 'vitest';
import { bounded, DELIVERY_CODE_LABELS, LLM_OUTCOME_LABELS, PLATFORM_LABELS } from '../../src/metrics/labels.js';
import { createPromMetrics } from '../../app/metrics.js';
import { noMetrics, replyLaps, type ReplyStage } from '../../src/metrics/metrics.js';

describe('metric labels', () => {
  it('keeps known values and maps unknown ones to "other"', () => {
    expect(bounded(PLATFORM_LABELS, 'telegram')).toBe('telegram');
    expect(bounded(PLATFORM_LABELS, 'myspace')).toBe('other');
    expect(bounded(LLM_OUTCOME_LABELS, 'SOMETHING_NEW')).toBe('other');
    expect(bounded(DELIVERY_CODE_LABELS, undefined)).toBe('other');
  });

  it('exposes only bounded label values, whatever the callers pass', async () => {
    const m = createPromMetrics({ defaultMetrics: false });
    m.inbound('dialogue-123', 'message', 'accepted');
    m.inbound('telegram', 'weird', 'duplicate');
    m.llmCall('reply', 'E_UNHEARD_OF', { inputTokens: 5, outputTokens: 2, ttftMs: 40 });
    m.deliveryFailure('telegram', { kind: 'rate_limited', retryAfterMs: 1000, global: true });
    m.memoryJob('user-42', 'turn-7');
    m.roomSkip('timeout');
    const text = await m.registry.metrics();
    expect(text).toContain('rainbow_inbound_events_total{platform="other",kind="message",result="accepted"} 1');
    expect(text).toContain('rainbow_inbound_events_total{platform="telegram",kind="other",result="duplicate"} 1');
    expect(text).toContain('rainbow_inbound_duplicates_suppressed_total{platform="telegram"} 1');
    expect(text).toContain('rainbow_llm_calls_total{kind="reply",outcome="other"} 1');
    expect(text).toContain('rainbow_llm_tokens_total{kind="reply",direction="input"} 5');
    expect(text).toContain('rainbow_platform_rate_limited_total{platform="telegram",scope="global"} 1');
    expect(text).toContain('rainbow_memory_jobs_total{job="other",result="other"} 1');
    expect(text).toContain('rainbow_room_ask_timeouts_total 1');
    for (const id of ['dialogue-123', 'E_UNHEARD_OF', 'user-42', 'turn-7', 'weird']) expect(text).not.toContain(id);
  });

  it('times a reply stage by stage', () => {
    const seen: ReplyStage[] = [];
    const lap = replyLaps({ ...noMetrics, replyStage: (s) => seen.push(s) });
    lap('context');
    lap('model');
    expect(seen).toEqual(['context', 'model']);
  });
});
