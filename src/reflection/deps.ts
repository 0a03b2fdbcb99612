// What self-reflection is given (ports: the core knows no queue and no Redis). One reflection
// per agent at a time is the lock's job: whoever holds it (named by the run id) may run or roll
// back; a second trigger finds it held and is refused with REFLECTION_RUNNING.
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';
import type { MemoryTaskDeps } from '../memory/taskDeps.js';
import type { MemoryVersions } from '../memory/versions.js';

export interface ReflectionLock {
  /** Takes the agent's lock for `holder` (a run id); false when someone holds it. */
  acquire(agentId: string, holder: string): Promise<boolean>;
  /** Who holds it now (a run id), if anyone. */
  holder(agentId: string): Promise<string | undefined>;
  /**
   * Keeps `holder`'s lock alive, taking it again if it lapsed meanwhile; false when another
   * holder has it now.
   */
  renew(agentId: string, holder: string): Promise<boolean>;
  /** Frees the lock if `holder` still has it. */
  release(agentId: string, holder: string): Promise<void>;
  /** How long a lock lives without renewal. */
  readonly leaseMs: number;
}

/** Queues a run for a worker (jobs/reflectionJobs.ts); the job id is the run id, so once. */
export interface ReflectionQueuePort {
  enqueueRun(job: { reflectionId: string; agentId: string }): Promise<void>;
}

/** Starting a run (the API's trigger and the scheduler's tick). */
export interface TriggerDeps {
  store: Store;
  lock: ReflectionLock;
  queue: ReflectionQueuePort;
  log: Logger;
}

/** Running one (a worker): the memory tasks' model, embedder and index cache, and the lock. */
export interface RunDeps extends MemoryTaskDeps {
  lock: ReflectionLock;
  now?: () => Date;
}

/** Rolling one back (the API): memory writes are announced to every process's index through the versions. */
export interface RollbackDeps {
  store: Store;
  lock: ReflectionLock;
  memoryVersions?: MemoryVersions;
  log: Logger;
}

/** What the operator API is given for reflections (absent: the mutations are refused). */
export interface ReflectionOps {
  lock: ReflectionLock;
  queue: ReflectionQueuePort;
  /** The deployment's zone for schedules that name none (DISPLAY_TIMEZONE). */
  defaultTimezone: string;
}
