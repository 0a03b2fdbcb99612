// Runs app/main.ts as a real child process (e.g. a worker to kill mid-reply).
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  process: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `nodeArgs`: flags for node itself (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
export function runMain(env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): Child {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'app/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return {
    process: child,
    exited,
    output: () => output,
    stderr: () => stderr,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
