// The measurement plan: floor, then the pipeline's scenarios, then the floor again (to see
// drift), with CPU recorded per phase. Each pipeline scenario gets a fresh app on a fresh
// database: on FerretDB a turn's cost grows with the collections, so sharing one database
// would make each scenario's numbers depend on the ones before it.
import type { BenchConfig } from './config.js';
import type { FloorRig } from './floor.js';
import type { PipelineRig } from './pipeline.js';
import { burstTurns, sequentialTurns } from './turns.js';
import { cpuSince, cpuSnapshot } from './cpu.js';
import type { CpuSpan, Results } from './summary.js';

/** Runs `f` and records the CPU it used, attributed to `items` items. */
async function withCpu<T>(f: () => Promise<T>, items: (result: T) => number): Promise<{ result: T; cpu: CpuSpan }> {
  const start = cpuSnapshot();
  const result = await f();
  return { result, cpu: { used: cpuSince(start), items: items(result) } };
}

export async function measureAll(
  floor: FloorRig,
  openPipeline: (tag: string) => Promise<PipelineRig>,
  cfg: BenchConfig,
  childLabel: string,
  progress: (line: string) => void,
): Promise<Results> {
  const r: Pick<Results, 'floorSeq' | 'floorBurst' | 'cpu'> = {
    floorSeq: [],
    floorBurst: [],
    cpu: { floorSeq: [], floorBurst: [] },
  };
  const runFloor = async (when: string) => {
    progress(`floor (${when}): ${cfg.floorSeq} sequential + ${cfg.floorBursts} bursts of ${cfg.burst}`);
    if (cfg.floorWarmup > 0) await floor.burst(cfg.floorWarmup, cfg.producers); // warm-up, untimed
    const seq = await withCpu(
      () => floor.sequential(cfg.floorSeq, cfg.warmup),
      () => cfg.floorSeq + cfg.warmup,
    );
    r.floorSeq.push(seq.result);
    r.cpu.floorSeq.push(seq.cpu);
    const burst = await withCpu(
      async () => {
        const runs = [];
        for (let i = 0; i < cfg.floorBursts; i++) runs.push(await floor.burst(cfg.burst, cfg.producers));
        return runs;
      },
      () => cfg.burst * cfg.floorBursts,
    );
    r.floorBurst.push(burst.result);
    r.cpu.floorBurst.push(burst.cpu);
  };

  await runFloor('before');
  const fresh = async <T>(tag: string, f: (rig: PipelineRig) => Promise<T>): Promise<T> => {
    const rig = await openPipeline(tag);
    try {
      return await f(rig);
    } finally {
      await rig.close();
    }
  };
  progress(`pipeline: ${cfg.turns} sequential turns, new chat each`);
  const newChat = await fresh('seq', (rig) =>
    withCpu(
      () => sequentialTurns(rig, { label: 'new-chat', n: cfg.turns, warmup: cfg.warmup, sameChat: false }),
      () => cfg.turns + cfg.warmup,
    ),
  );
  progress(`pipeline: ${cfg.chatTurns} sequential turns in one chat`);
  const oneChat = await fresh('chat', (rig) =>
    sequentialTurns(rig, { label: 'one-chat', n: cfg.chatTurns, warmup: cfg.warmup, sameChat: true }),
  );
  progress(`pipeline: burst of ${cfg.burst} turns, ${cfg.producers} producers`);
  const burst = await fresh('burst', async (rig) => {
    await sequentialTurns(rig, { label: 'burst-warmup', n: 0, warmup: cfg.warmup, sameChat: false }); // this app's connections
    return withCpu(
      () =>
        burstTurns(rig, {
          label: 'burst',
          n: cfg.burst,
          producers: cfg.producers,
          pollMs: cfg.pollMs,
          timeoutMs: 120_000,
        }),
      (b) => b.accepted,
    );
  });
  await runFloor('after');

  return {
    ...r,
    burstSize: cfg.burst,
    seqNewChat: newChat.result,
    seqOneChat: oneChat,
    burst: burst.result,
    cpu: { ...r.cpu, seqNewChat: newChat.cpu, burst: burst.cpu },
    childLabel,
  };
}
