// The console's language for components: the I18nProvider holds the locale (browser languages
// unless the operator picked one), and useI18n() gives t() and locale-aware dates and numbers.
// Switching re-renders in place, no reload, so open pages keep their state.
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/messages.js';
import { applyLocale, currentLocale, intlLocale, translate, type Locale } from './locale.js';
import { formatDate, type DateStyle } from './time.js';

export type { Locale } from './locale.js';
export type { MessageKey } from '../i18n/messages.js';

// Function properties, not methods: pages destructure them (`const { t } = useI18n()`).
export interface I18n {
  locale: Locale;
  setLocale: (l: Locale) => void;
  t: (key: MessageKey, vars?: Record<string, string | number>) => string;
  formatDate: (d: Date | string, style?: DateStyle) => string;
  formatNumber: (n: number) => string;
}

function make(locale: Locale, setLocale: (l: Locale) => void): I18n {
  const numbers = new Intl.NumberFormat(intlLocale(locale));
  return {
    locale,
    setLocale,
    t: (key, vars) => translate(key, vars, locale),
    formatDate: (d, style) => formatDate(d, style),
    formatNumber: (n) => numbers.format(n),
  };
}

const I18nContext = createContext<I18n>(make(currentLocale(), (l) => applyLocale(l, true)));

export function I18nProvider(p: { children: ComponentChildren }) {
  const [locale, set] = useState<Locale>(currentLocale);
  // The <html lang> of the start follows the browser; index.html does not hard-code it.
  useLayoutEffect(() => applyLocale(currentLocale(), false), []);
  const value = useMemo(
    () =>
      make(locale, (l) => {
        // The module state first, so plain functions (time.ts) format in the new locale this render.
        applyLocale(l, true);
        set(l);
      }),
    [locale],
  );
  return <I18nContext.Provider value={value}>{p.children}</I18nContext.Provider>;
}

export const useI18n = (): I18n => useContext(I18nContext);
