// Relationship notes (SPEC §13): an agent's note on one person, by derived `_id` (agent, person),
// so a private chat's prompt reads it with one point read. Listing and deleting by person are
// the API's and BR-006's, off the hot path.
import type { Collections } from './collections.js';
import type { RelationshipNote } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';

export const relationshipIdOf = (agentId: string, humanId: string): string => derivedId('rel', agentId, humanId);

export class RelationshipRepo {
  constructor(private readonly c: Collections) {}

  get(agentId: string, humanId: string): Promise<RelationshipNote | null> {
    return this.c.relationships.findOne({ _id: relationshipIdOf(agentId, humanId) });
  }

  async put(note: Omit<RelationshipNote, '_id'>): Promise<void> {
    const _id = relationshipIdOf(note.agentId, note.humanId);
    await this.c.relationships.replaceOne({ _id }, note, { upsert: true });
  }

  /** API: an agent's notes, newest first. */
  ofAgent(agentId: string, limit: number): Promise<RelationshipNote[]> {
    return this.c.relationships.find({ agentId }).sort({ updatedAt: -1 }).limit(limit).toArray();
  }

  /** API: every agent's note on one person. */
  aboutHuman(humanId: string): Promise<RelationshipNote[]> {
    return this.c.relationships.find({ humanId }).toArray();
  }

  /** BR-006: a deleted person's notes go with them. */
  async deleteAboutHuman(humanId: string): Promise<number> {
    return (await this.c.relationships.deleteMany({ humanId })).deletedCount;
  }
}
