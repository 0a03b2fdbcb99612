// What one run's steps share while it runs: the run, the agent, its reflection state, the
// config, the budget, and the turn each step fills in as it goes (so a step that fails is still
// stored with what it read and sent).
import type { Agent } from '../domain/model.js';
import type { GatewayConfig } from '../domain/config.js';
import {
  STEP_INFO,
  introspectionTurnIdOf,
  type IntrospectionTurn,
  type PlannedStep,
  type ReflectionAgentState,
  type ReflectionRun,
} from '../domain/reflection.js';
import type { RunDeps } from './deps.js';
import type { Spender } from './spend.js';

export interface RunContext {
  deps: RunDeps;
  run: ReflectionRun;
  agent: Agent;
  /** Settings, values and mood; values and mood move when the adjust step writes them. */
  state: ReflectionAgentState;
  config: GatewayConfig;
  spender: Spender;
  now: () => Date;
  /** Start of "recent": now minus the agent's lookback. */
  since: Date;
  /** Memories this run wrote so far (the report's basis). */
  generated: string[];
}

/** The turn a step fills in: seed 000's IntrospectionTurn with nothing read, called or changed yet. */
export function draftTurn(ctx: RunContext, planned: PlannedStep, startedAt: Date): IntrospectionTurn {
  const info = STEP_INFO[planned.step];
  return {
    _id: introspectionTurnIdOf(ctx.run._id, planned.seq),
    kind: 'introspection',
    reflectionId: ctx.run._id,
    agentId: ctx.run.agentId,
    seq: planned.seq,
    step: planned.step,
    purpose: info.purpose,
    ...(planned.subjectId ? { subjectId: planned.subjectId } : {}),
    inputContext: { memoryIds: [], messageIds: [], turnIds: [], humanIds: [] },
    tool: info.tool,
    toolInput: null,
    toolOutput: null,
    status: 'done',
    generatedMemoryIds: [],
    supersededMemoryIds: [],
    notes: [],
    moodShift: null,
    valueImpact: null,
    tokens: 0,
    startedAt,
    durationMs: 0,
  };
}
