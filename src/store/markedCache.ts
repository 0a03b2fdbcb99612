// Documents every turn reads and few writes change (the config, the agents), kept per process
// behind a write mark shared by every process: one Redis GET per use instead of a store read.
// Every write through the store moves the mark; a write that bypasses it (an edit by hand in the
// database) is seen within `maxAgeMs`. Values are frozen: every caller shares them.

/** Moves on every write of what it covers; shared by every process (src/store/redisWriteMark.ts). */
export interface WriteMark {
  /** The current mark; null before the first write this mark has seen. */
  read(): Promise<string | null>;
  /** A new mark that no process has cached under. */
  move(): Promise<void>;
}

/** Keys held at most (agents of one deployment: a handful; past it the cache starts over). */
const MAX_KEYS = 1_000;

export class MarkedCache<V> {
  private readonly held = new Map<string, { mark: string | null; value: V; at: number }>();

  constructor(
    private readonly mark: WriteMark | undefined,
    private readonly maxAgeMs = 5_000,
  ) {}

  /** The value under `key`: as held while the mark has not moved, else `read` again. */
  async get(key: string, read: () => Promise<V>): Promise<V> {
    if (!this.mark) return deepFreeze(await read());
    const mark = await this.mark.read();
    const held = this.held.get(key);
    if (held?.mark === mark && Date.now() - held.at < this.maxAgeMs) return held.value;
    // Read after the mark: a write landing meanwhile moves the mark again, so it is not missed.
    const at = Date.now();
    const value = deepFreeze(await read());
    if (this.held.size >= MAX_KEYS) this.held.clear();
    this.held.set(key, { mark, value, at });
    return value;
  }

  /** After a write: this process reads again at once, every other one once it sees the mark moved. */
  async written(): Promise<void> {
    this.held.clear();
    await this.mark?.move();
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
