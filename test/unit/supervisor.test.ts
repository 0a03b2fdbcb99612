// The local-services supervisor over a stand-in child: a child that dies is started again after a
// backoff, a failing start is retried, and a stopped supervisor starts nothing more.
import { describe, expect, it } from 'vitest';
import { supervise, type RunningChild } from '../../src/localServices/supervisor.js';

/** A child the test ends by hand. */
function fakeChild(): RunningChild & { die(code: number): void; stopped: boolean } {
  let die: (code: number | null) => void = () => {};
  const exited = new Promise<number | null>((res) => (die = res));
  const child = {
    exited,
    stopped: false,
    die: (code: number) => die(code),
    stop: () => {
      child.stopped = true;
      die(null);
      return Promise.resolve();
    },
  };
  return child;
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('supervise', () => {
  it('starts a dead child again, retrying a failed start, and stops for good when asked', async () => {
    const children: Array<ReturnType<typeof fakeChild>> = [];
    let failNext = false;
    const lines: string[] = [];
    const s = await supervise({
      name: 'stand-in',
      backoffMs: 10,
      log: (l) => lines.push(l),
      start: () => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('port busy'));
        }
        const c = fakeChild();
        children.push(c);
        return Promise.resolve(c);
      },
    });
    expect(children).toHaveLength(1);

    failNext = true;
    children[0]!.die(1);
    await tick(150); // 10 ms, a failed start, then 20 ms
    expect(children).toHaveLength(2);
    expect(s.restarts).toBe(1);
    expect(lines.some((l) => l.includes('did not start: port busy'))).toBe(true);
    expect(lines.at(-1)).toBe('stand-in is running again');

    await s.stop();
    expect(children[1]!.stopped).toBe(true);
    await tick(100);
    expect(children).toHaveLength(2); // a stop is not a death
  });

  it('does not start again a child that died while being stopped', async () => {
    let starts = 0;
    const s = await supervise({
      name: 'stand-in',
      backoffMs: 10,
      log: () => {},
      start: () => {
        starts += 1;
        return Promise.resolve(fakeChild());
      },
    });
    await s.stop();
    await tick(60);
    expect(starts).toBe(1);
  });
});
