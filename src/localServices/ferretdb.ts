// Builds (once, cached by source hash) and starts the embedded FerretDB launcher: a
// MongoDB-wire server for machines where real MongoDB cannot be installed. Dev and tests only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const launcherDir = join(dirname(fileURLToPath(import.meta.url)), 'ferretdb');
export const projectRoot = resolve(launcherDir, '..', '..', '..');
const binDir = join(projectRoot, '.local', 'bin');

export interface RunningFerretDB {
  uri: string;
  stop: () => Promise<void>;
  /** Resolves with the exit code (null: a signal) when the server ends, asked to or not. */
  exited: Promise<number | null>;
  pid: number | undefined;
}

function sourceHash(): string {
  const h = createHash('sha256');
  // Every Go source of the launcher, so any change to it builds a new binary.
  const sources = readdirSync(launcherDir)
    .filter((f) => f.endsWith('.go') || f === 'go.mod' || f === 'go.sum')
    .sort();
  for (const f of sources) h.update(f).update(readFileSync(join(launcherDir, f)));
  return h.digest('hex').slice(0, 12);
}

/** Returns the launcher binary path, building it with the Go toolchain when missing. */
export function ensureFerretBinary(log: (line: string) => void = () => {}): string {
  const bin = join(binDir, `ferretdb-launcher-${sourceHash()}`);
  if (existsSync(bin)) return bin;
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0) {
    throw new Error(
      'No MongoDB reachable and the Go toolchain is missing, so the local FerretDB server cannot be built. ' +
        'Set MONGODB_URI to a running MongoDB, or run `docker compose up -d mongo redis`.',
    );
  }
  mkdirSync(binDir, { recursive: true });
  log('building the local FerretDB launcher (first run only, about two minutes)');
  // Build beside the target and rename, so an interrupted build never leaves a broken binary.
  const tmp = `${bin}.tmp-${process.pid}`;
  const build = spawnSync('go', ['build', '-o', tmp, '.'], {
    cwd: launcherDir,
    encoding: 'utf8',
    env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod -buildvcs=false' },
  });
  if (build.status !== 0) {
    throw new Error(`building the FerretDB launcher failed:\n${build.stderr}`);
  }
  renameSync(tmp, bin);
  return bin;
}

/**
 * Starts FerretDB listening on 127.0.0.1:port. By default the sqlite handler keeps data in
 * dataDir; with `postgresUrl` the postgresql handler stores it in that (existing) database,
 * which pushes simple equality filters down to indexes — much faster on large collections.
 */
export async function startFerretDB(opts: {
  port: number;
  dataDir: string;
  postgresUrl?: string;
  log?: (line: string) => void;
}): Promise<RunningFerretDB> {
  const bin = ensureFerretBinary(opts.log);
  mkdirSync(opts.dataDir, { recursive: true });
  const child = spawn(
    bin,
    [
      '-listen',
      `127.0.0.1:${opts.port}`,
      ...(opts.postgresUrl
        ? ['-handler', 'postgresql', '-postgresql-url', opts.postgresUrl]
        : ['-sqlite-url', sqliteUrl(opts.dataDir)]),
      '-exit-on-stdin-eof',
    ],
    // stdin stays open as a lifeline: if this process dies, FerretDB sees EOF and exits.
    // GOGC: FerretDB allocates per command (BSON ⇄ JSON); its Go GC took a tenth of its CPU at
    // the default 100. Its live heap is small, so trading memory for CPU is cheap here.
    { stdio: ['pipe', 'pipe', 'pipe'], env: { GOGC: '400', ...process.env } },
  );
  const stderr: string[] = [];
  child.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
  const exited = exitOf(child);
  const uri = withPoolCap(await waitForReady(child, stderr));
  return { uri, stop: () => stopChild(child), exited, pid: child.pid };
}

/**
 * Connections one client opens at most. FerretDB's SQLite backend serves every command from a
 * pool of 100 connections, and an operation can hold more than one (a bulk write holds one per
 * document it replaces): with 600 client connections (three processes under a load of 1 000
 * chats, the driver's default 100 per client each) every pooled connection was held by an
 * operation waiting for another, and the server stopped answering for good. Four processes of a
 * split deployment at 20 each stay below it; the driver queues the rest client-side.
 */
export const FERRETDB_CLIENT_POOL = 20;

function withPoolCap(uri: string): string {
  const u = new URL(uri);
  if (!u.searchParams.has('maxPoolSize')) u.searchParams.set('maxPoolSize', String(FERRETDB_CLIENT_POOL));
  return u.toString();
}

/** The child's exit code once it ends (null when a signal ended it). */
export const exitOf = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((res) => child.once('exit', (code) => res(code)));

/** Pages read through a memory map instead of a pread syscall each (SQLite's mmap I/O). */
const MMAP_BYTES = 256 * 1024 * 1024;

/**
 * The sqlite handler's directory URI. WAL with `synchronous=NORMAL` (SQLite's advice for WAL):
 * a commit survives a crash of any process and waits for no fsync; only a power cut can lose the
 * last commits. FerretDB's default (FULL) fsyncs every write, which was a third of its CPU per turn.
 */
const sqliteUrl = (dataDir: string): string =>
  `file:${dataDir.replace(/\/?$/, '/')}?_pragma=synchronous(NORMAL)&_pragma=mmap_size(${MMAP_BYTES})`;

function waitForReady(child: ChildProcess, stderr: string[]): Promise<string> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`FerretDB did not start in 30 s: ${stderr.join('')}`)), 30_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^READY (\S+)/.exec(line);
      if (m?.[1]) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`FerretDB exited with code ${code}: ${stderr.join('')}`));
    });
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      res();
    });
    child.kill('SIGTERM');
  });
}
