// What a reply needs from outside (SPEC §4.2): the store, the model, the tools, the platforms'
// outbound channels and the settings of a reply. app/ fills it; every step of a reply takes it.
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Outbounds, OutboundChannel, Persona } from '../delivery/outbound.js';
import type { Agent, ChatRef, Message, Platform, Turn } from '../domain/model.js';
import type { TokenCounter } from '../llm/tokens.js';
import type { PlatformRegistry } from '../platforms/platform.js';
import type { MemoryRecall } from '../memory/recall.js';
import type { KnowledgeRetrieval } from '../knowledge/retrieval.js';
import type { LlmClient } from '../llm/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Locale } from '../i18n/texts.js';
import type { ActiveReplies } from './activeReplies.js';
import type { AfterReply } from './afterReply.js';
import type { StreamStageFactory } from '../delivery/streamStage.js';
import type { NextAsk } from '../rooms/roomFlow.js';
import type { Metrics } from '../metrics/metrics.js';

export interface RespondDeps {
  store: Store;
  llm: LlmClient;
  tools: ToolRegistry;
  outbounds: Outbounds;
  log: Logger;
  /** The deployment's reply model (LLM_MODEL); an agent's own `modelSettings.name` wins. */
  model: string;
  llmTimeoutMs: number;
  maxToolRounds: number;
  /** Real tokenizer for the prompt budget (SPEC §5). */
  counter: TokenCounter;
  /** Active recall over the agent's memories of the human; absent → no memories section. */
  recall?: MemoryRecall;
  /** Passages of the agent's documents for the prompt, cited as [n] (src/knowledge); absent → none. */
  knowledge?: KnowledgeRetrieval;
  /** Passages per turn (KNOWLEDGE_TOP_K). */
  knowledgeTopK?: number;
  streamEditIntervalMs: number;
  /** The registered platforms' facts (a platform's own stream interval); absent: defaults apply. */
  platforms?: PlatformRegistry;
  locale: Locale;
  timezone: string;
  active: ActiveReplies;
  /** A room asked an external agent (MCP or webhook): tell it (webhook agents get a signed agent_turn). */
  notifyExternal?(agent: Agent, turn: Turn): Promise<void>;
  /** The agent's own account on the chat's platform (its Telegram bot); none → the deployment's outbound. */
  agentOutbound?(agentId: string, chat: ChatRef): Promise<OutboundChannel | undefined>;
  /** The name and avatar an agent posts under on this chat (Discord persona webhooks); none → the bot account. */
  personaOf?(agent: Agent, chat: ChatRef): Persona | undefined;
  /** Turns pending attachments of these messages into text (src/media); absent → used as stored. */
  prepareMedia?(platform: Platform, messages: Message[]): Promise<Message[]>;
  /** The deployment's own stages between the model and what is shown, placed between REQUIRED_STAGES. */
  streamStages?: readonly StreamStageFactory[];
  /** Called after a turn is closed by a reply (post-turn jobs hang off this); may name a room's next ask. */
  onReplied?(turn: Turn, at: Date, after: AfterReply): Promise<NextAsk | undefined>;
  /** Reply latency by stage (src/metrics); absent: not measured. */
  metrics?: Metrics;
}
