// Each day's spend (SPEC §14): one counter document per person, chat, agent and the deployment,
// keyed `day:scope:subject`, so a model call adds to its counters and a budget check reads them
// by `_id` alone (SPEC §3). The console lists a day's counters through the `day` index.
import type { Collections } from './collections.js';
import { spendIdOf, type SpendDay, type SpendScope } from '../domain/spend.js';

export interface SpendAdd {
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

/** Most rows the console reads for one query. */
const LISTED_ROWS = 5_000;

export class SpendRepo {
  constructor(private readonly c: Collections) {}

  /** Adds one call to each subject's counter of the day: upserts by `_id`, in one command. */
  async add(
    day: string,
    subjects: ReadonlyArray<{ scope: SpendScope; subjectId: string }>,
    used: SpendAdd,
    at: Date,
  ): Promise<void> {
    const tokens = used.inputTokens + used.outputTokens;
    const $inc = { tokens, inputTokens: used.inputTokens, outputTokens: used.outputTokens, cost: used.cost, calls: 1 };
    await this.c.spend.bulkWrite(
      subjects.map(({ scope, subjectId }) => ({
        updateOne: {
          filter: { _id: spendIdOf(day, scope, subjectId) },
          update: { $inc, $set: { day, scope, subjectId, updatedAt: at } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /** One subject's counter of the day; null when nothing was spent. */
  get(day: string, scope: SpendScope, subjectId: string): Promise<SpendDay | null> {
    return this.c.spend.findOne({ _id: spendIdOf(day, scope, subjectId) });
  }

  /** The counters of the days from `fromDay` to `toDay` (inclusive), for the console and the API. */
  list(o: { fromDay: string; toDay: string; scope?: SpendScope }): Promise<SpendDay[]> {
    return this.c.spend
      .find({ day: { $gte: o.fromDay, $lte: o.toDay }, ...(o.scope ? { scope: o.scope } : {}) })
      .sort({ day: -1, tokens: -1 })
      .limit(LISTED_ROWS)
      .toArray();
  }

  /** BR-006: a person's counters go with them. */
  async deletePerson(humanId: string): Promise<void> {
    await this.c.spend.deleteMany({ scope: 'person', subjectId: humanId });
  }
}
