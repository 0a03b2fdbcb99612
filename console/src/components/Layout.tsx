// The frame around every page: navigation, who is signed in with which role, the time zone
// times are shown in, and sign-out.
import type { ComponentChildren } from 'preact';
import { Link } from '../lib/router.js';
import { endSession, type Viewer } from '../lib/session.js';
import type { Section } from '../routes.js';

const NAV: Array<{ section: Section; href: string; label: string }> = [
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

export function Layout(p: { viewer: Viewer; section: Section; children: ComponentChildren }) {
  return (
    <div class="shell">
      <nav class="sidebar">
        <div class="brand">
          <span class="logo" aria-hidden="true" />
          <div>
            <div class="brand-name">Rainbow Gateway</div>
            <div class="brand-sub">Operator console</div>
          </div>
        </div>
        <ul>
          {NAV.map((n) => (
            <li>
              <Link href={n.href} class={n.section === p.section ? 'active' : ''}>
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
      </nav>
      <main class="content">{p.children}</main>
    </div>
  );
}
