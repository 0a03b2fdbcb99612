// Iteration counts and knobs, each overridable from the environment (BENCH_*).

export function intFromEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
  return n;
}

export interface BenchConfig {
  /** Untimed iterations before each sequential scenario (connections, JIT, caches). */
  warmup: number;
  /** Floor: untimed burst iterations before each floor run; a cold stack (JIT, servers) is ~2× slower. */
  floorWarmup: number;
  /** Floor: bursts per floor run (a burst of 200 lasts well under a second; one is noisy). */
  floorBursts: number;
  /** Floor: sequential insert+enqueue+dequeue iterations. */
  floorSeq: number;
  /** Pipeline: sequential turns, each in a new private chat. */
  turns: number;
  /** Pipeline: sequential turns in one private chat. */
  chatTurns: number;
  /** Burst size, for the floor and the pipeline alike. */
  burst: number;
  /** Producers in flight during a burst (floor inserts+adds, pipeline handleInbound calls). */
  producers: number;
  /** BullMQ worker concurrency, for the floor and the pipeline alike (WORKER_CONCURRENCY). */
  concurrency: number;
  /** How often the burst polls the store's responded-turn count. */
  pollMs: number;
  /** STREAM_EDIT_INTERVAL_MS of the app (the env schema's minimum is 50). */
  streamEditMs: number;
  /**
   * TELEGRAM_GLOBAL_PER_SECOND of the app. The bench measures the pipeline, so by default it
   * lifts the pace one real bot keeps (25 messages/s, which caps its replies near 25/s).
   */
  telegramPerSecond: number;
}

export function loadBenchConfig(): BenchConfig {
  return {
    warmup: intFromEnv('BENCH_WARMUP', 10, 0),
    floorWarmup: intFromEnv('BENCH_FLOOR_WARMUP', 2000, 0),
    floorBursts: intFromEnv('BENCH_FLOOR_BURSTS', 5),
    floorSeq: intFromEnv('BENCH_FLOOR_SEQ', 300),
    turns: intFromEnv('BENCH_TURNS', 100),
    chatTurns: intFromEnv('BENCH_CHAT_TURNS', 50),
    burst: intFromEnv('BENCH_BURST', 200),
    producers: intFromEnv('BENCH_PRODUCERS', 8),
    concurrency: intFromEnv('BENCH_CONCURRENCY', 8),
    pollMs: intFromEnv('BENCH_POLL_MS', 250),
    streamEditMs: intFromEnv('BENCH_STREAM_EDIT_MS', 50, 50),
    telegramPerSecond: intFromEnv('BENCH_TG_PER_SECOND', 1000),
  };
}
