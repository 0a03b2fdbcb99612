// Giving an agent its own platform account (SPEC §8: one Telegram bot per agent). The token is
// checked with the platform (its adapter, through the port below) before it is stored; the
// account it names becomes one of the agent's bindings, so mentions of it reach the agent. The
// token itself is stored apart (src/store/agentBots.ts) and never logged or returned.
import { z } from 'zod';
import type { AgentBinding, Platform } from '../domain/model.js';
import { GatewayError } from '../errors.js';
import type { Store } from '../store/store.js';
import { parseInput } from './input.js';

/** The platform's answer for a bot token (an adapter implements it, e.g. Telegram getMe). */
export interface PlatformAccounts {
  /** The account a token belongs to; throws when the platform refuses the token. */
  whoIs(platform: Platform, token: string): Promise<{ userId: string; username?: string }>;
}

const agentBotInput = z.object({
  agentId: z.string().min(1).max(200),
  platform: z.literal('telegram'),
  token: z
    .string()
    .trim()
    .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must look like 123456:ABC-DEF… (from @BotFather)'),
});

export async function setAgentBot(
  deps: { store: Store; accounts: PlatformAccounts },
  input: { agentId: string; platform: string; token: string },
  now: Date,
): Promise<AgentBinding> {
  const { agentId, platform, token } = parseInput(agentBotInput, input);
  const agent = await deps.store.participants.getAgent(agentId);
  if (!agent) throw new GatewayError('NOT_FOUND', `agent ${agentId} not found`);
  const account = await deps.accounts.whoIs(platform, token).catch((err: unknown) => {
    throw new GatewayError('BAD_REQUEST', `${platform} refused the token`, { cause: err });
  });
  const binding: AgentBinding = {
    platform,
    userId: account.userId,
    ...(account.username ? { username: account.username } : {}),
  };
  await deps.store.agentBots.put({ agentId, platform, token, account, updatedAt: now });
  await deps.store.participants.setBinding(agentId, binding, now);
  return binding;
}

/** Takes an agent's own bot away: its token is deleted and the agent stops posting under it. */
export async function removeAgentBot(
  store: Store,
  input: { agentId: string; platform: Platform },
  now: Date,
): Promise<void> {
  const agent = await store.participants.getAgent(input.agentId);
  if (!agent) throw new GatewayError('NOT_FOUND', `agent ${input.agentId} not found`);
  // The gateway's supervisor stops a bot whose token is gone on its next scan.
  await store.agentBots.remove(input.agentId, input.platform);
  await store.participants.removeBinding(input.agentId, input.platform, now);
}
