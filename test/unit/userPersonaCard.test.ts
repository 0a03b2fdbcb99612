import { describe, expect, it } from 'vitest';
import { describeStyle, inferCommunicationStyle, promptLanguage } from '../../src/persona/communicationStyle.js';
import { buildUserPersonaCard, renderPersonaCard, type PersonaCardInput } from '../../src/persona/userPersonaCard.js';
import { detectTone } from '../../src/tone/detectTone.js';
import { nextToneState } from '../../src/tone/toneState.js';

const now = new Date('2024-05-01T10:00:00Z');

const base: PersonaCardInput = { displayName: 'wang_99', recentHumanTexts: [], memories: [], visits: 1 };

describe('communication style', () => {
  it('reads a brief, casual Chinese writer who uses emoji', () => {
    expect(inferCommunicationStyle(['哈哈好的😂', '嗯嗯 明天见啦', '好呀👍'])).toEqual({
      language: 'zh',
      length: 'brief',
      emoji: 'frequent',
      formality: 'casual',
    });
  });

  it('reads a detailed, formal English writer without emoji', () => {
    const long =
      'Could you please explain in detail how the recovery period works after the procedure, and what I should prepare beforehand so that everything goes smoothly? Thank you.';
    expect(inferCommunicationStyle([long, long])).toEqual({
      language: 'en',
      length: 'detailed',
      emoji: 'none',
      formality: 'formal',
    });
  });

  it('reads mixed Chinese and English', () => {
    expect(inferCommunicationStyle(['这个 project 的 deadline 是 next Friday 吗'])?.language).toBe('mixed');
  });

  it('has no style without any text', () => {
    expect(inferCommunicationStyle(['', '  '])).toBeUndefined();
  });

  it('does not take "you" for the casual "u"', () => {
    expect(inferCommunicationStyle(['I will tell you tomorrow'])?.formality).toBe('neutral');
    expect(inferCommunicationStyle(['ok u coming?'])?.formality).toBe('casual');
  });

  it('describes a style in both languages', () => {
    const style = { language: 'zh', length: 'brief', emoji: 'some', formality: 'casual' } as const;
    expect(describeStyle(style, 'zh')).toBe('中文，消息简短，偶尔用表情，语气随意');
    expect(describeStyle(style, 'en')).toBe('writes Chinese, short messages, some emoji, casual');
  });

  it('picks zh for the prompt when the user writes mostly Chinese', () => {
    expect(promptLanguage(['我想问一下', '好的谢谢'])).toBe('zh');
    expect(promptLanguage(['hello', 'what time is it?'])).toBe('en');
    expect(promptLanguage(['这个 ok 吗'])).toBe('zh');
    expect(promptLanguage(['ok 好'])).toBe('en');
    expect(promptLanguage([], 'zh')).toBe('zh');
    expect(promptLanguage(['👍'], 'zh')).toBe('zh');
  });
});

describe('buildUserPersonaCard', () => {
  it('prefers the name the user asked for over the display name', () => {
    expect(buildUserPersonaCard({ ...base, nameFromMemory: '小王' }).name).toBe('小王');
    expect(buildUserPersonaCard(base).name).toBe('wang_99');
  });

  it('takes preferences from preference memories and concerns from facts and events, worries first', () => {
    const card = buildUserPersonaCard({
      ...base,
      memories: [
        { kind: 'fact', text: 'Works as a nurse', importance: 0.9 },
        { kind: 'preference', text: 'Likes short answers', importance: 0.4 },
        { kind: 'event', text: 'Worried about scars after the surgery', importance: 0.5 },
        { kind: 'preference', text: 'Prefers green tea', importance: 0.8 },
        { kind: 'reflection', text: 'I should be gentler', importance: 1 },
        { kind: 'fact', text: 'Lives in Shanghai', importance: 0.2 },
        { kind: 'fact', text: 'Has a cat', importance: 0.7 },
      ],
    });
    expect(card.concerns).toEqual(['Worried about scars after the surgery', 'Works as a nurse', 'Has a cat']);
    expect(card.preferences).toEqual(['Prefers green tea', 'Likes short answers']);
  });

  it('carries visits, last topic and the mood from the tone state', () => {
    const tone = nextToneState(undefined, detectTone(['我好担心，好紧张']), now);
    const card = buildUserPersonaCard({
      ...base,
      visits: 4,
      lastTopic: '双眼皮价格',
      tone,
      recentHumanTexts: ['我好担心，好紧张'],
    });
    expect(card).toMatchObject({ visits: 4, lastTopic: '双眼皮价格', emotionalState: 'high_anxiety' });
    expect(card.communicationStyle?.language).toBe('zh');
    expect(buildUserPersonaCard(base).emotionalState).toBe('neutral');
  });
});

describe('renderPersonaCard', () => {
  const tone = nextToneState(undefined, detectTone(['我好担心，好紧张']), now);
  const card = buildUserPersonaCard({
    displayName: 'wang',
    nameFromMemory: '小王',
    recentHumanTexts: ['请问恢复期多久？', '我好担心'],
    memories: [
      { kind: 'event', text: '担心术后疤痕', importance: 0.6 },
      { kind: 'preference', text: '喜欢简短的回答', importance: 0.5 },
    ],
    visits: 3,
    lastTopic: '价格',
    tone,
  });

  it('renders with the seed 003 Chinese labels', () => {
    expect(renderPersonaCard(card, 'zh').split('\n')).toEqual([
      '称呼: 小王',
      '沟通风格: 中文，消息简短，不用表情，语气礼貌正式',
      '主要关注: 担心术后疤痕',
      '偏好: 喜欢简短的回答',
      '访问次数: 3',
      '上次话题: 价格',
      '当前情绪: 焦虑',
    ]);
  });

  it('renders with English labels', () => {
    const text = renderPersonaCard(card, 'en');
    expect(text).toContain('Name: 小王');
    expect(text).toContain('Main concerns: 担心术后疤痕');
    expect(text).toContain('Visits: 3');
    expect(text).toContain('Current mood: anxious');
  });

  it('leaves out empty fields and marks a first visit', () => {
    expect(renderPersonaCard(buildUserPersonaCard(base), 'en')).toBe(
      'Name: wang_99\nVisits: 1 (first visit)\nCurrent mood: calm',
    );
    expect(renderPersonaCard(buildUserPersonaCard(base), 'zh')).toBe(
      '称呼: wang_99\n访问次数: 1（首次）\n当前情绪: 平静',
    );
  });
});
