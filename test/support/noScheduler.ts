// A Scheduler that schedules nothing: for tests that call ingest directly and check its writes.
import type { Scheduler } from '../../src/lifecycle/scheduler.js';

export const noScheduler: Scheduler = {
  expireTurnAt: async () => {},
  checkSessionAt: async () => {},
  checkInAt: async () => {},
  roomAnswerDueAt: async () => {},
};
