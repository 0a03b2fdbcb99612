import { describe, expect, it } from 'vitest';
import { pickLocale, text } from '../../src/i18n/texts.js';

describe('pickLocale', () => {
  it.each(['zh', 'zh-hans', 'zh-Hans', 'zh-TW', 'zh-hk', 'ZH-CN'])('maps %s to zh-CN', (tag) => {
    expect(pickLocale(tag, 'en')).toBe('zh-CN');
  });

  it.each(['en', 'en-GB', 'en-US', 'EN'])('maps %s to en', (tag) => {
    expect(pickLocale(tag, 'zh-CN')).toBe('en');
  });

  it('falls back for a language we do not have', () => {
    expect(pickLocale('fr', 'zh-CN')).toBe('zh-CN');
    expect(pickLocale('fr', 'en')).toBe('en');
    expect(pickLocale('de-DE', 'en')).toBe('en');
  });

  it('falls back when the platform gives no language', () => {
    expect(pickLocale(undefined, 'zh-CN')).toBe('zh-CN');
    expect(pickLocale(undefined, 'en')).toBe('en');
    expect(pickLocale('', 'en')).toBe('en');
  });
});

describe('text', () => {
  it('gives the notice in the chosen language', () => {
    expect(text('MESSAGE_TOO_LONG', 'en')).toContain('10,000');
    expect(text('MESSAGE_TOO_LONG', 'zh-CN')).toContain('10000');
    expect(text('MESSAGE_CONTENT_REQUIRED', 'en')).not.toBe(text('MESSAGE_CONTENT_REQUIRED', 'zh-CN'));
  });
});
