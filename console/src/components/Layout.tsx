// The frame around every page: navigation, who is signed in with which role, the time zone
// times are shown in, and sign-out. On a narrow screen the menu folds behind a toggle so the
// page itself is on the first screen.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Link } from '../lib/router.js';
import { useI18n, type MessageKey } from '../lib/i18n.js';
import { LanguageSwitch } from './LanguageSwitch.js';
import { useRoleLabel } from './ui.js';
import { endSession, type Viewer } from '../lib/session.js';
import type { Section } from '../routes.js';

const NAV: Array<{ section: Section; href: string; label: MessageKey }> = [
  { section: 'home', href: '/home', label: 'nav.home' },
  { section: 'dialogues', href: '/dialogues', label: 'nav.dialogues' },
  { section: 'agents', href: '/setup/agents', label: 'setup.nav.agents' },
  { section: 'rooms', href: '/rooms', label: 'nav.rooms' },
  { section: 'backgrounds', href: '/backgrounds', label: 'setup.nav.backgrounds' },
  { section: 'memories', href: '/memories', label: 'nav.memories' },
  { section: 'knowledge', href: '/knowledge', label: 'nav.knowledge' },
  { section: 'reflections', href: '/reflections', label: 'nav.reflections' },
  { section: 'chat', href: '/chat', label: 'nav.chat' },
  { section: 'webUsers', href: '/web-users', label: 'setup.nav.webUsers' },
  { section: 'access', href: '/access', label: 'nav.access' },
  { section: 'stats', href: '/stats', label: 'nav.stats' },
  { section: 'warnings', href: '/warnings', label: 'nav.warnings' },
  { section: 'config', href: '/config', label: 'nav.config' },
];

const MENU_ID = 'console-menu';

export function Layout(p: { viewer: Viewer; section: Section; children: ComponentChildren }) {
  // Only narrow screens hide the menu (CSS); on wide ones the toggle is not shown at all.
  const [open, setOpen] = useState(false);
  const { t } = useI18n();
  const roleLabel = useRoleLabel();
  const toggle = useRef<HTMLButtonElement>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };
  return (
    <div class="shell">
      <nav
        class={`sidebar${open ? ' open' : ''}`}
        aria-label={t('nav.label')}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) close(true);
        }}
      >
        <div class="brand">
          <span class="logo" aria-hidden="true" />
          <div>
            <div class="brand-name">{t('app.name')}</div>
            <div class="brand-sub">{t('app.sub')}</div>
          </div>
          <button
            ref={toggle}
            type="button"
            class="menu-toggle"
            aria-expanded={open}
            aria-controls={MENU_ID}
            onClick={() => setOpen((o) => !o)}
          >
            <span class="menu-icon" aria-hidden="true" />
            {t('nav.menu')}
          </button>
        </div>
        <div class="menu" id={MENU_ID}>
          {/* Following a link closes the menu, so the page it opens is what the phone shows. */}
          <ul onClick={(e) => (e.target as Element).closest('a') && close(false)}>
            {NAV.map((n) => (
              <li>
                <Link
                  href={n.href}
                  class={n.section === p.section ? 'active' : ''}
                  aria-current={n.section === p.section ? 'page' : undefined}
                >
                  {t(n.label)}
                </Link>
              </li>
            ))}
          </ul>
          <div class="whoami" data-testid="whoami">
            <div>
              <strong>{p.viewer.name}</strong>{' '}
              <span class={`role role-${p.viewer.role}`}>{roleLabel(p.viewer.role)}</span>
            </div>
            <div class="muted small">{t('layout.timesIn', { zone: p.viewer.timezone })}</div>
            <button class="link" onClick={() => endSession('signed-out')}>
              {t('layout.signOut')}
            </button>
            <LanguageSwitch />
          </div>
        </div>
      </nav>
      <main class="content">{p.children}</main>
    </div>
  );
}
