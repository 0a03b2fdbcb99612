// Backgrounds (a library operators keep) and plot states (one per dialogue and background,
// by derived `_id`, so switching back resumes a story without a query).
import type { Collections } from './collections.js';
import type { Dialogue } from '../domain/model.js';
import type { Background, PlotState } from '../domain/story.js';
import { freshPlot, instancesIdOf, plotIdOf, withInstance } from '../domain/story.js';
import { guardKeys, type StateGuard } from './stateGuard.js';

/** A dialogue's story now: its background and that background's plot state (started when new). */
export interface Story {
  background: Background;
  plot: PlotState;
}

export class StoryRepo {
  constructor(
    private readonly c: Collections,
    private readonly guard: StateGuard,
  ) {}

  async createBackground(b: Background): Promise<void> {
    await this.c.backgrounds.insertOne(b);
  }

  async replaceBackground(b: Background): Promise<void> {
    await this.c.backgrounds.replaceOne({ _id: b._id }, b);
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

  /** The story of a dialogue already read: two reads by `_id` when it follows a background, none otherwise. */
  async ofDialogue(d: Pick<Dialogue, '_id' | 'backgroundId'>, at: Date): Promise<Story | null> {
    if (!d.backgroundId) return null;
    const [background, plot] = await Promise.all([
      this.getBackground(d.backgroundId),
      this.getPlot(d._id, d.backgroundId),
    ]);
    return background ? { background, plot: plot ?? freshPlot(d._id, background, at) } : null;
  }

  /** Whole-document write by `_id`; callers hold the dialogue's state guard. */
  async savePlot(plot: PlotState): Promise<void> {
    await this.c.plots.replaceOne({ _id: plot._id }, plot, { upsert: true });
  }

  /** The dialogues in which `agentId` follows `backgroundId`, oldest first (one read by `_id`). */
  async instancesOf(agentId: string, backgroundId: string): Promise<string[]> {
    return (await this.c.storyInstances.findOne({ _id: instancesIdOf(agentId, backgroundId) }))?.dialogueIds ?? [];
  }

  /** Notes that each of `agentIds` follows `backgroundId` in `dialogueId` (a switch of background). */
  async noteInstance(agentIds: readonly string[], backgroundId: string, dialogueId: string, at: Date): Promise<void> {
    await Promise.all(
      agentIds.map((agentId) => {
        const _id = instancesIdOf(agentId, backgroundId);
        return this.guard.run(guardKeys.storyInstances(_id), async () => {
          const list = await this.instancesOf(agentId, backgroundId);
          const dialogueIds = withInstance(list, dialogueId);
          await this.c.storyInstances.replaceOne(
            { _id },
            { agentId, backgroundId, dialogueIds, updatedAt: at },
            { upsert: true },
          );
        });
      }),
    );
  }
}
