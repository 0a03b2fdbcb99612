// Which page a console path shows (the server answers every one of them with index.html).
import type { JSX } from 'preact';
import { match, type Location } from './lib/router.js';
import { Dialogues } from './pages/Dialogues.js';
import { DialoguePage } from './pages/Dialogue.js';
import { TurnTracePage } from './pages/TurnTrace.js';
import { TurnDiffPage } from './pages/TurnDiff.js';
import { Rooms } from './pages/Rooms.js';
import { RoomPage } from './pages/Room.js';
import { Memories } from './pages/Memories.js';
import { ConfigPage } from './pages/Config.js';
import { Warnings } from './pages/Warnings.js';
import { StatsPage } from './pages/Stats.js';
import { Knowledge } from './pages/Knowledge.js';
import { Chat } from './pages/Chat.js';
import { Reflections } from './pages/Reflections.js';
import { Home } from './pages/Home.js';
import { AgentPage, Agents } from './pages/Agents.js';
import { Backgrounds } from './pages/Backgrounds.js';
import { WebUsers } from './pages/WebUsers.js';
import { AccessPage } from './pages/Access.js';
import { Empty } from './components/ui.js';

export type Section =
  | 'home'
  | 'dialogues'
  | 'rooms'
  | 'memories'
  | 'config'
  | 'warnings'
  | 'stats'
  | 'knowledge'
  | 'chat'
  | 'reflections'
  | 'agents'
  | 'backgrounds'
  | 'webUsers'
  | 'access'
  | 'none';

interface Route {
  pattern: string;
  section: Section;
  render: (p: Record<string, string>, loc: Location) => JSX.Element;
}

const ROUTES: Route[] = [
  { pattern: '/home', section: 'home', render: () => <Home /> },
  { pattern: '/dialogues', section: 'dialogues', render: (_p, l) => <Dialogues query={l.query} /> },
  { pattern: '/dialogues/:id', section: 'dialogues', render: (p, l) => <DialoguePage id={p.id!} query={l.query} /> },
  { pattern: '/turns/:id', section: 'dialogues', render: (p) => <TurnTracePage id={p.id!} /> },
  {
    pattern: '/diff',
    section: 'dialogues',
    render: (_p, l) => <TurnDiffPage a={l.query.get('a') ?? ''} b={l.query.get('b') ?? ''} />,
  },
  { pattern: '/rooms', section: 'rooms', render: () => <Rooms /> },
  { pattern: '/rooms/:id', section: 'rooms', render: (p) => <RoomPage id={p.id!} /> },
  { pattern: '/memories', section: 'memories', render: (_p, l) => <Memories query={l.query} /> },
  { pattern: '/config', section: 'config', render: () => <ConfigPage /> },
  { pattern: '/warnings', section: 'warnings', render: () => <Warnings /> },
  { pattern: '/stats', section: 'stats', render: () => <StatsPage /> },
  { pattern: '/knowledge', section: 'knowledge', render: (_p, l) => <Knowledge query={l.query} /> },
  { pattern: '/reflections', section: 'reflections', render: (_p, l) => <Reflections query={l.query} /> },
  { pattern: '/chat', section: 'chat', render: () => <Chat /> },
  { pattern: '/setup/agents', section: 'agents', render: () => <Agents /> },
  { pattern: '/setup/agents/:id', section: 'agents', render: (p) => <AgentPage id={p.id!} /> },
  { pattern: '/backgrounds', section: 'backgrounds', render: () => <Backgrounds /> },
  { pattern: '/web-users', section: 'webUsers', render: () => <WebUsers /> },
  { pattern: '/access', section: 'access', render: () => <AccessPage /> },
  { pattern: '/chat/:id', section: 'chat', render: (p) => <Chat id={p.id} /> },
];

export function routeFor(path: string): { section: Section; render: (loc: Location) => JSX.Element } {
  for (const r of ROUTES) {
    const params = match(r.pattern, path);
    if (params) return { section: r.section, render: (loc) => r.render(params, loc) };
  }
  return { section: 'none', render: () => <Empty>No page at {path}.</Empty> };
}
