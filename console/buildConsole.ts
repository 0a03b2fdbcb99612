// Builds the console (console/ → console/dist) unless the build is newer than every source, so
// `npm start` and `npm test` pay for it only after a change (and a read-only install, such as
// the Docker image built at image time, never writes).
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const CONSOLE_ROOT = import.meta.dirname;
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');
const SOURCES = ['src', 'index.html', 'vite.config.ts', '../package-lock.json'];

async function newestMtime(path: string): Promise<number> {
  const s = await stat(path).catch(() => undefined);
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  const entries = await readdir(path);
  const times = await Promise.all(entries.map((e) => newestMtime(join(path, e))));
  return Math.max(s.mtimeMs, ...times);
}

/** Whether console/dist was built after the last change to its sources. */
export async function consoleIsFresh(): Promise<boolean> {
  const built = (await stat(join(CONSOLE_DIST, 'index.html')).catch(() => undefined))?.mtimeMs ?? 0;
  const sources = await Promise.all(SOURCES.map((s) => newestMtime(join(CONSOLE_ROOT, s))));
  return built > 0 && built >= Math.max(...sources);
}

/** Runs Vite's production build when needed; true when it built. */
export async function buildConsole(o: { force?: boolean } = {}): Promise<boolean> {
  if (!o.force && (await consoleIsFresh())) return false;
  // Loaded only when a build is due: starting the gateway does not pay for Vite's import.
  const { build } = await import('vite');
  await build({ root: CONSOLE_ROOT, configFile: join(CONSOLE_ROOT, 'vite.config.ts'), logLevel: 'warn' });
  return true;
}
