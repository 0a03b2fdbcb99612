// What the operator actions (GraphQL mutations) are given: the store, the platforms to post
// to, and the queues that run long work (summaries, persona evolution) in a worker.
import type { Store } from '../store/store.js';
import type { Outbounds } from '../delivery/outbound.js';
import type { Logger } from '../log.js';
import type { MemoryScheduler } from '../lifecycle/memoryWork.js';
import type { Locale } from '../i18n/texts.js';
import type { MemoryRecall } from '../memory/recall.js';
import type { Scheduler } from '../lifecycle/scheduler.js';
import type { MemoryVersions } from '../memory/versions.js';
import type { PlatformAccounts } from './agentBots.js';
import type { KnowledgeDeps } from '../knowledge/documents.js';
import type { ReflectionOps } from '../reflection/deps.js';
import type { ExportLinks } from './exportLinks.js';
import type { HealthProbes } from '../health/health.js';
import type { ReplyLease } from '../domain/replyLease.js';

export interface OpsDeps {
  store: Store;
  outbounds: Outbounds;
  memory: Pick<MemoryScheduler, 'summarize' | 'evolve'>;
  log: Logger;
  sessionGapMs: number;
  responseWindowMs: number;
  locale: Locale;
  timezone: string;
  /** The turns' memory recall, for the operators' semantic memory search (absent: not offered). */
  recall?: Pick<MemoryRecall, 'recall'>;
  /** Memory index versions, bumped when a deletion removes memories (absent: no process's warm index learns of it). */
  memoryVersions?: MemoryVersions;
  /** Turn expiry and session idle checks for turns and sessions opened by an operator (jobs/timers.ts). */
  scheduler: Scheduler;
  /** Queue the AI's reply to a turn (the respond queue; the job id is the turn id, so once). */
  enqueueReply(job: { turnId: string; dialogueId: string }): Promise<void>;
  /** The dialogue's reply lease (jobs/replyLease.ts): null while a reply or summary holds it. */
  replyLease: Pick<ReplyLease, 'acquire'>;
  /** Which account a bot token belongs to (registering an agent's own bot). */
  accounts: PlatformAccounts;
  /** Agents' knowledge documents: upload and delete (absent: those mutations are refused). */
  knowledge?: KnowledgeDeps;
  /** Self-reflection: trigger and roll back runs (absent: those mutations are refused). */
  reflection?: ReflectionOps;
  /** Signs exports' download links (absent: no key, so exports are refused; see src/export/linkKey.ts). */
  exportLinks?: ExportLinks;
  /** The platform link that opens a chat with the bot holding an invite code (Telegram's deep link); null: none. */
  inviteLink?: (code: string) => Promise<string | null>;
  /** What the health page asks of the deployment (absent: Query.health answers INTERNAL, a wiring mistake). */
  health?: HealthProbes;
}
