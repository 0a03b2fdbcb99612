// 中文 / English in the sidebar footer: real buttons (Tab, Enter, Space), the current one marked
// pressed. Each language is named in itself so an operator who cannot read the other finds theirs.
import { Fragment } from 'preact';
import { useI18n, type Locale } from '../lib/i18n.js';

const CHOICES: Array<{ locale: Locale; label: string }> = [
  { locale: 'zh-CN', label: '中文' },
  { locale: 'en', label: 'English' },
];

export function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  return (
    <div class="lang-switch" role="group" aria-label={t('layout.language')} data-testid="lang-switch">
      {CHOICES.map((c, i) => (
        <Fragment key={c.locale}>
          {i > 0 && <span aria-hidden="true"> / </span>}
          <button
            type="button"
            class="link"
            lang={c.locale}
            aria-pressed={c.locale === locale}
            data-testid={`lang-${c.locale}`}
            onClick={() => setLocale(c.locale)}
          >
            {c.label}
          </button>
        </Fragment>
      ))}
    </div>
  );
}
