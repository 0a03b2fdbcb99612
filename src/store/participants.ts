import type { Collections } from './collections.js';
import type { Agent, Human, PlatformIdentity } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';

export const DEFAULT_AGENT_ID = 'agt_default';

export const humanIdOf = (identity: Pick<PlatformIdentity, 'platform' | 'userId'>) => derivedId('hum', identity.platform, identity.userId);

export class ParticipantRepo {
  constructor(private readonly c: Collections) {}

  /** One Human per platform identity, created on first contact; the display name follows the platform. */
  async resolveHuman(identity: PlatformIdentity, at: Date): Promise<Human> {
    const _id = humanIdOf(identity);
    const displayName = identity.displayName ?? identity.username ?? identity.userId;
    const doc = await this.c.humans.findOneAndUpdate(
      { _id },
      { $setOnInsert: { identities: [identity], createdAt: at }, $set: { displayName, updatedAt: at } },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new Error(`human upsert returned nothing for ${_id}`);
    return doc;
  }

  /** The default agent exists from the first start; later starts never overwrite an edited persona. */
  async ensureDefaultAgent(name: string, persona: string, at: Date = new Date()): Promise<Agent> {
    const doc = await this.c.agents.findOneAndUpdate(
      { _id: DEFAULT_AGENT_ID },
      { $setOnInsert: { name, basePersona: persona, isDefault: true, createdAt: at, updatedAt: at } },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new Error('default agent upsert returned nothing');
    return doc;
  }

  getAgent(id: string): Promise<Agent | null> {
    return this.c.agents.findOne({ _id: id });
  }
}
