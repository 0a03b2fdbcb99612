// SPEC §14's word on a human sender, read before a message is placed: are they let in
// (src/domain/access.ts), is their content flagged (moderation, checked before the guard), is
// their or their chat's budget spent (src/budget/). Reads by `_id` only: the config (cached),
// the person and chat as ingest read them, and the day's counters when a cap is set.
import type { GatewayConfig } from '../domain/config.js';
import type { Dialogue, Human } from '../domain/model.js';
import { admission } from '../domain/access.js';
import type { BudgetGate } from '../budget/budgetGate.js';
import type { InboundMessage } from './inboundEvent.js';
import type { SenderGate } from './placement.js';

const PASS: SenderGate = { pass: true };

export interface GateInput {
  ev: InboundMessage;
  human: Human;
  dialogue: Pick<Dialogue, '_id' | 'access'>;
  config: GatewayConfig;
  /** Moderation flagged the message's content (checked before the guard). */
  flagged: boolean;
  budget: BudgetGate | undefined;
  now: Date;
}

export async function senderGate(i: GateInput): Promise<SenderGate> {
  const { ev, human, dialogue, config } = i;
  // Bots are other agents and the platform's own: the floor rules decide about them.
  if (ev.sender.isBot) return PASS;
  const entry = admission({
    mode: config.access.mode,
    person: human.access,
    chat: dialogue.access,
    chatKind: ev.chat.kind,
    issuedByOperator: ev.sender.vouched === true,
  });
  if (!entry.admitted) {
    const silent = config.access.refusal === 'silent' ? { silent: true as const } : {};
    return { pass: false, reason: entry.reason, code: 'ACCESS_DENIED', scope: 'all', ...silent };
  }
  if (i.flagged) return { pass: false, reason: 'moderation', code: 'MODERATION_FLAGGED', scope: 'all' };
  if (!i.budget) return PASS;
  const verdict = await i.budget.check({ humanId: human._id, dialogueId: dialogue._id }, i.now, { human });
  if (verdict.ok) return PASS;
  const spent = { cap: verdict.cap, resetAt: verdict.resetAt };
  return { pass: false, reason: 'budget', code: 'BUDGET_EXCEEDED', scope: 'answer', spent };
}
