// The frame around every page: navigation, who is signed in with which role, the time zone
// times are shown in, and sign-out. On a narrow screen the menu folds behind a toggle so the
// page itself is on the first screen.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Link } from '../lib/router.js';
import { endSession, type Viewer } from '../lib/session.js';
import type { Section } from '../routes.js';

const NAV: Array<{ section: Section; href: string; label: string }> = [
  { section: 'home', href: '/home', label: 'Home' },
  { section: 'dialogues', href: '/dialogues', label: 'Dialogues' },
  { section: 'rooms', href: '/rooms', label: 'Rooms' },
  { section: 'memories', href: '/memories', label: 'Memories' },
  { section: 'knowledge', href: '/knowledge', label: 'Knowledge' },
  { section: 'reflections', href: '/reflections', label: 'Reflections' },
  { section: 'chat', href: '/chat', label: 'Chat' },
  { section: 'stats', href: '/stats', label: 'Stats' },
  { section: 'warnings', href: '/warnings', label: 'Warnings' },
  { section: 'config', href: '/config', label: 'Config' },
];

const MENU_ID = 'console-menu';

export function Layout(p: { viewer: Viewer; section: Section; children: ComponentChildren }) {
  // Only narrow screens hide the menu (CSS); on wide ones the toggle is not shown at all.
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };
  return (
    <div class="shell">
      <nav
        class={`sidebar${open ? ' open' : ''}`}
        aria-label="Console"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) close(true);
        }}
      >
        <div class="brand">
          <span class="logo" aria-hidden="true" />
          <div>
            <div class="brand-name">Rainbow Gateway</div>
            <div class="brand-sub">Operator console</div>
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
            Menu
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
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
          <div class="whoami" data-testid="whoami">
            <div>
              <strong>{p.viewer.name}</strong> <span class={`role role-${p.viewer.role}`}>{p.viewer.role}</span>
            </div>
            <div class="muted small">Times in {p.viewer.timezone}</div>
            <button class="link" onClick={() => endSession('signed-out')}>
              Sign out
            </button>
          </div>
        </div>
      </nav>
      <main class="content">{p.children}</main>
    </div>
  );
}
