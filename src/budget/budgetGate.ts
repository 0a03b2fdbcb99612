// Budgets before the call (SPEC §14): reads a payer's counters of the day by `_id`, says whether
// the next model call may go, and adds what a call used. The rules are src/domain/spend.ts's.
import type { Store } from '../store/store.js';
import type { GatewayConfig } from '../domain/config.js';
import type { Human } from '../domain/model.js';
import { capReached, costOf, dayOf, nextResetAt, personCap, spendSubjects, type Payer } from '../domain/spend.js';

export type CapKind = 'person' | 'chat' | 'deployment';

export type BudgetVerdict = { ok: true } | { ok: false; cap: CapKind; resetAt: Date; day: string };

export interface BudgetGateDeps {
  store: Pick<Store, 'spend' | 'participants'>;
  config(): Promise<GatewayConfig>;
  /** DISPLAY_TIMEZONE: the day of the budgets. */
  timezone: string;
}

export class BudgetGate {
  constructor(private readonly deps: BudgetGateDeps) {}

  /** Whether a call for `payer` may be made now; only the counters a cap in force needs are read. */
  async check(payer: Payer, at: Date, known: { human?: Human | null } = {}): Promise<BudgetVerdict> {
    const { store, timezone } = this.deps;
    const { limits } = await this.deps.config();
    const day = dayOf(at, timezone);
    const human =
      known.human !== undefined ? known.human : payer.humanId ? await store.participants.getHuman(payer.humanId) : null;
    const caps = {
      personTokens: payer.humanId ? personCap(human ? human.dailyTokens : undefined, limits.person_daily_tokens) : 0,
      chatTokens: payer.dialogueId ? limits.chat_daily_tokens : 0,
      deploymentCost: limits.deployment_daily_cost,
    };
    const read = (want: boolean, scope: 'person' | 'chat' | 'deployment', id: string | undefined) =>
      want && id ? store.spend.get(day, scope, id) : Promise.resolve(null);
    const [person, chat, deployment] = await Promise.all([
      read(caps.personTokens > 0, 'person', payer.humanId),
      read(caps.chatTokens > 0, 'chat', payer.dialogueId),
      read(caps.deploymentCost > 0, 'deployment', 'all'),
    ]);
    const cap = capReached(caps, {
      personTokens: person?.tokens ?? 0,
      chatTokens: chat?.tokens ?? 0,
      deploymentCost: deployment?.cost ?? 0,
    });
    return cap ? { ok: false, cap, resetAt: nextResetAt(at, timezone), day } : { ok: true };
  }

  /** Adds one call's use to the payer's counters of the day (and the deployment's). */
  async record(payer: Payer, o: { model: string; inputTokens: number; outputTokens: number }, at: Date): Promise<void> {
    const { pricing } = await this.deps.config();
    const cost = costOf(o, o.model, pricing);
    const used = { inputTokens: o.inputTokens, outputTokens: o.outputTokens, cost };
    await this.deps.store.spend.add(dayOf(at, this.deps.timezone), spendSubjects(payer), used, at);
  }
}
