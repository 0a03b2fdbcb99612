// An agent's reflection settings as an operator sets them: a partial update over the stored
// settings (defaults: off, 03:00 daily, 72 hours back), checked as a whole before it is stored
// (CONFIG_INVALID names every problem). Values and mood are the reflections' own; not set here.
import { z } from 'zod';
import { GatewayError } from '../errors.js';
import { settingsProblems, type ReflectionAgentState, type ReflectionSettings } from '../domain/reflection.js';
import type { Store } from '../store/store.js';

export const settingsPatchSchema = z.object({
  enabled: z.boolean().optional(),
  cron: z.string().trim().min(1).max(200).optional(),
  /** null: back to the deployment's zone. */
  timezone: z.string().trim().min(1).max(100).nullable().optional(),
  /** null: no quiet hours. */
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable().optional(),
  lookbackHours: z.number().int().optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export async function setReflectionSettings(
  deps: { store: Store },
  agentId: string,
  raw: unknown,
  now: Date,
): Promise<ReflectionAgentState> {
  const agent = await deps.store.participants.getAgent(agentId);
  if (!agent) throw new GatewayError('NOT_FOUND', `no agent with id ${agentId}`);
  const parsed = settingsPatchSchema.safeParse(raw);
  if (!parsed.success)
    throw new GatewayError(
      'CONFIG_INVALID',
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  const current = (await deps.store.reflections.agentStateOrDefault(agent._id, now)).settings;
  const next = merge(current, parsed.data);
  const problems = settingsProblems(next);
  if (problems.length > 0) throw new GatewayError('CONFIG_INVALID', problems.join('; '));
  return deps.store.reflections.putSettings(agent._id, next, now);
}

function merge(current: ReflectionSettings, p: SettingsPatch): ReflectionSettings {
  const { timezone: _tz, quietHours: _q, ...rest } = current;
  const timezone = p.timezone === undefined ? current.timezone : (p.timezone ?? undefined);
  const quietHours = p.quietHours === undefined ? current.quietHours : (p.quietHours ?? undefined);
  return {
    ...rest,
    ...(p.enabled !== undefined ? { enabled: p.enabled } : {}),
    ...(p.cron !== undefined ? { cron: p.cron } : {}),
    ...(p.lookbackHours !== undefined ? { lookbackHours: p.lookbackHours } : {}),
    ...(timezone !== undefined ? { timezone } : {}),
    ...(quietHours !== undefined ? { quietHours } : {}),
  };
}
