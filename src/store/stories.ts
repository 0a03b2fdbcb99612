// Backgrounds (a library operators keep) and plot states (one per dialogue and background,
// by derived `_id`, so switching back resumes a story without a query).
import type { Collections } from './collections.js';
import type { Background, PlotState } from '../domain/story.js';
import { plotIdOf } from '../domain/story.js';

export class StoryRepo {
  constructor(private readonly c: Collections) {}

  async createBackground(b: Background): Promise<void> {
    await this.c.backgrounds.insertOne(b);
  }

  getBackground(id: string): Promise<Background | null> {
    return this.c.backgrounds.findOne({ _id: id });
  }

  /** Every background, newest first (the operator API; a short list). */
  listBackgrounds(limit: number): Promise<Background[]> {
    return this.c.backgrounds.find({}).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
  }

  getPlot(dialogueId: string, backgroundId: string): Promise<PlotState | null> {
    return this.c.plots.findOne({ _id: plotIdOf(dialogueId, backgroundId) });
  }

  /** Whole-document write by `_id`; callers hold the dialogue's state guard. */
  async savePlot(plot: PlotState): Promise<void> {
    await this.c.plots.replaceOne({ _id: plot._id }, plot, { upsert: true });
  }
}
