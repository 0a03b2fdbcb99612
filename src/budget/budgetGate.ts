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

/**
 * How long a person's own quota is kept between reads: a reply's tool rounds and its extraction
 * read it once, and an operator's change applies within this time.
 */
const QUOTA_TTL_MS = 10_000;
const QUOTAS_KEPT = 10_000;

export class BudgetGate {
  private readonly quotas = new Map<string, { quota: number | undefined; until: number }>();

  constructor(private readonly deps: BudgetGateDeps) {}

  /** The person's own quota, read by `_id` at most once per QUOTA_TTL_MS (or taken from a person just read). */
  private async quotaOf(humanId: string, known: Human | null | undefined, now: number): Promise<number | undefined> {
    const kept = this.quotas.get(humanId);
    if (known === undefined && kept && kept.until > now) return kept.quota;
    const human = known !== undefined ? known : await this.deps.store.participants.getHuman(humanId);
    if (this.quotas.size >= QUOTAS_KEPT) this.quotas.clear();
    this.quotas.set(humanId, { quota: human?.dailyTokens, until: now + QUOTA_TTL_MS });
    return human?.dailyTokens;
  }

  /** Whether a call for `payer` may be made now; only the counters a cap in force needs are read. */
  async check(payer: Payer, at: Date, known: { human?: Human | null } = {}): Promise<BudgetVerdict> {
    const { store, timezone } = this.deps;
    const { limits } = await this.deps.config();
    const day = dayOf(at, timezone);
    const quota = payer.humanId ? await this.quotaOf(payer.humanId, known.human, at.getTime()) : undefined;
    const caps = {
      personTokens: payer.humanId ? personCap(quota, limits.person_daily_tokens) : 0,
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
