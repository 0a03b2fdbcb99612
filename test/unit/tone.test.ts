import { describe, expect, it } from 'vitest';
import { TONE_EMOTIONS } from '../../src/domain/model.js';
import { detectTone, zeroScores } from '../../src/tone/detectTone.js';
import { TONE_LEXICON } from '../../src/tone/lexicon.js';
import { TONE_TEMPLATE_TEXTS, toneGuidance } from '../../src/tone/templates.js';
import { chooseTemplate, nextToneState, toneChanged, TONE_TEMPLATES } from '../../src/tone/toneState.js';

const now = new Date('2024-05-01T10:00:00Z');
const later = new Date('2024-05-01T10:05:00Z');

describe('tone lexicon', () => {
  it("holds seed 003's Chinese keywords and English lists for all six emotions", () => {
    for (const kw of ['担心', '害怕', '紧张', '不安', '风险', '后悔']) expect(TONE_LEXICON.anxiety.zh).toContain(kw);
    for (const kw of ['期待', '想要', '终于', '迫不及待', '好想']) expect(TONE_LEXICON.excitement.zh).toContain(kw);
    for (const kw of ['不懂', '什么意思', '搞不清', '迷茫', '不明白']) expect(TONE_LEXICON.confusion.zh).toContain(kw);
    for (const kw of ['相信', '放心', '专业', '感谢', '信任']) expect(TONE_LEXICON.trust.zh).toContain(kw);
    for (const e of TONE_EMOTIONS) {
      expect(TONE_LEXICON[e].zh.length).toBeGreaterThan(4);
      expect(TONE_LEXICON[e].en.length).toBeGreaterThan(4);
    }
  });
});

describe('detectTone', () => {
  it('counts Chinese keywords per emotion', () => {
    const s = detectTone(['我有点担心，也挺紧张的', '这是什么意思？我不明白']);
    expect(s.anxiety).toBe(2);
    expect(s.confusion).toBe(2);
    expect(s.excitement).toBe(0);
  });

  it('counts English keywords as whole words, case-insensitively', () => {
    const s = detectTone(["I'm so WORRIED and nervous", "Finally! I'm so excited", 'This is unclear']);
    expect(s.anxiety).toBe(2);
    expect(s.excitement).toBe(2);
    expect(s.confusion).toBe(1);
    // "sadder" or "downtown" are not hits.
    expect(detectTone(['we went downtown, saddle and all']).sadness).toBe(0);
  });

  it('does not count a keyword right after a negation (zh and en)', () => {
    expect(detectTone(['我不担心，一点都不紧张']).anxiety).toBe(0);
    expect(detectTone(['别担心']).anxiety).toBe(0);
    expect(detectTone(["I'm not worried", "don't worry about it", 'never scared']).anxiety).toBe(0);
    // A negation in an earlier clause does not cancel a later keyword.
    expect(detectTone(['不是的，我很担心']).anxiety).toBe(1);
    expect(detectTone(['No, I am worried']).anxiety).toBe(1);
  });

  it('counts an overlapping hit once, the longest word winning', () => {
    expect(detectTone(['我好害怕']).anxiety).toBe(1);
    expect(detectTone(["I don't understand"]).confusion).toBe(1);
  });

  it('gives zero for neutral text', () => {
    expect(detectTone(['今天中午吃了面条', 'the meeting is at 3pm'])).toEqual(zeroScores());
  });

  it('handles sadness, anger and trust', () => {
    const s = detectTone(['好难过，想哭', '气死我了，受够了', '谢谢你，我相信你']);
    expect(s.sadness).toBe(2);
    expect(s.anger).toBe(2);
    expect(s.trust).toBe(2);
  });
});

describe('tone state across turns', () => {
  it('chooses templates by seed 003 rules (anxiety first)', () => {
    const z = zeroScores();
    expect(chooseTemplate({ ...z, anxiety: 2, excitement: 5 })).toBe('high_anxiety');
    expect(chooseTemplate({ ...z, excitement: 2 })).toBe('high_excitement');
    expect(chooseTemplate({ ...z, confusion: 1 })).toBe('confusion');
    expect(chooseTemplate({ ...z, anxiety: 1.5 })).toBe('neutral');
    expect(chooseTemplate({ ...z, sadness: 2 })).toBe('sadness');
    expect(chooseTemplate({ ...z, anger: 2 })).toBe('anger');
    expect(chooseTemplate({ ...z, trust: 2 })).toBe('trust');
    expect(chooseTemplate(z)).toBe('neutral');
  });

  it('carries scores with decay: old × 0.5 + new', () => {
    const first = nextToneState(undefined, detectTone(['我很担心，很紧张']), now);
    expect(first.scores.anxiety).toBe(2);
    expect(first.template).toBe('high_anxiety');
    // A calm turn halves it: below the threshold, back to neutral.
    const second = nextToneState(first, detectTone(['好的，明白了']), later);
    expect(second.scores.anxiety).toBe(1);
    expect(second.template).toBe('neutral');
    expect(second.updatedAt).toEqual(later);
    // One more worry on top of what is left brings it back.
    const third = nextToneState(second, detectTone(['还是有点担心']), later);
    expect(third.scores.anxiety).toBe(1.5);
    const fourth = nextToneState(third, detectTone(['真的很害怕']), later);
    expect(fourth.scores.anxiety).toBe(1.75);
    const fifth = nextToneState(fourth, detectTone(['担心', '害怕']), later);
    expect(fifth.scores.anxiety).toBe(2.875);
    expect(fifth.template).toBe('high_anxiety');
  });

  it('lets a mood fade over quiet turns', () => {
    let state = nextToneState(undefined, detectTone(['太棒了！终于！好期待']), now);
    expect(state.template).toBe('high_excitement');
    for (let i = 0; i < 3; i++) state = nextToneState(state, zeroScores(), later);
    expect(state.scores.excitement).toBeCloseTo(3 / 8);
    expect(state.template).toBe('neutral');
  });
});

describe('whether a tone needs storing', () => {
  it('skips an unchanged or still-neutral state and keeps every real change', () => {
    const calm = nextToneState(undefined, detectTone(['好的']), now);
    // A first neutral turn says nothing an absent tone did not.
    expect(toneChanged(undefined, calm)).toBe(false);
    expect(toneChanged(calm, nextToneState(calm, zeroScores(), later))).toBe(false);
    const worried = nextToneState(calm, detectTone(['我很担心']), later);
    expect(toneChanged(calm, worried)).toBe(true);
    // Fading is a change too, until it reaches zero again.
    expect(toneChanged(worried, nextToneState(worried, zeroScores(), later))).toBe(true);
  });
});

describe('tone guidance templates', () => {
  it('uses seed 003 zh text verbatim', () => {
    expect(TONE_TEMPLATE_TEXTS.high_anxiety.zh).toBe(
      '用户目前显得比较焦虑，请：\n1. 用温和稳重的语气回复\n2. 先表达理解和共情\n3. 给出明确的、有安全感的建议\n4. 避免使用可能引发更多担忧的词汇',
    );
    expect(TONE_TEMPLATE_TEXTS.high_excitement.zh).toBe(
      '用户情绪积极，请：\n1. 保持专业的同时呼应用户的热情\n2. 给出详细的实用建议\n3. 适当管理期望，提醒注意事项',
    );
    expect(TONE_TEMPLATE_TEXTS.confusion.zh).toBe(
      '用户似乎有些困惑，请：\n1. 用简单易懂的语言解释\n2. 分点列出关键信息\n3. 主动询问哪里不清楚',
    );
  });

  it('has zh and en text for every template except neutral', () => {
    for (const t of TONE_TEMPLATES) {
      const spec = TONE_TEMPLATE_TEXTS[t];
      if (t === 'neutral') expect([spec.zh, spec.en]).toEqual(['', '']);
      else {
        expect(spec.zh.length).toBeGreaterThan(10);
        expect(spec.en).toMatch(/^The user/);
      }
    }
  });

  it('gives guidance for the state in the requested language, and none for neutral', () => {
    const anxious = nextToneState(undefined, detectTone(["I'm worried and scared"]), now);
    expect(toneGuidance(anxious, 'en')).toEqual({
      template: 'high_anxiety',
      text: TONE_TEMPLATE_TEXTS.high_anxiety.en,
    });
    expect(toneGuidance(anxious, 'zh').text).toContain('焦虑');
    expect(toneGuidance(undefined, 'zh')).toEqual({ template: 'neutral', text: '' });
    expect(toneGuidance(nextToneState(undefined, zeroScores(), now), 'en').text).toBe('');
  });

  it('re-derives the template of a stored state with an unknown template name', () => {
    const s = { ...zeroScores(), confusion: 1 };
    expect(toneGuidance({ scores: s, template: 'legacy_name', updatedAt: now }, 'en').template).toBe('confusion');
  });
});
