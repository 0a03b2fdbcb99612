// Tools are declared once: a zod schema gives both the JSON schema the model sees and the
// validation of the arguments it sends back. Every failure becomes a result the model can
// read (SPEC §6: a failing tool returns its error as the tool result), never an exception.
import { z } from 'zod';
import type { ToolCall, ToolSpec } from '../llm/types.js';
import type { Store } from '../store/store.js';

export interface ToolContext {
  store: Store;
  dialogueId: string;
  now: Date;
  timezone: string;
  /** Aborted when the tool's time is up or the reply is stopped. */
  signal: AbortSignal;
  /** A room's ask (SPEC §8): whether the agent may pass; if so, how, and whether it has already spoken. */
  ask?: { canSkip: false } | { canSkip: true; markSkipped(): void; spoke(): boolean };
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  parameters: S;
  run(args: z.infer<S>, ctx: ToolContext): Promise<unknown>;
}

export const defineTool = <S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> => def;

export type ToolErrorCode = 'UNKNOWN_TOOL' | 'INVALID_ARGUMENTS' | 'TOOL_FAILED' | 'TOOL_TIMEOUT';

export type ToolOutcome =
  | { ok: true; result: unknown; durationMs: number }
  | { ok: false; error: { code: ToolErrorCode; message: string }; durationMs: number };

export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();

  constructor(
    tools: ToolDefinition[],
    private readonly timeoutMs: number,
  ) {
    for (const t of tools) {
      if (this.byName.has(t.name)) throw new Error(`tool ${t.name} declared twice`);
      this.byName.set(t.name, t);
    }
  }

  get size(): number {
    return this.byName.size;
  }

  /** These tools and `extra` (for one reply, e.g. a room's skip_response). */
  with(extra: ToolDefinition[]): ToolRegistry {
    return new ToolRegistry([...this.byName.values(), ...extra], this.timeoutMs);
  }

  /** Every reply sends them; tools do not change, so each is converted to JSON schema once. */
  specs(): ToolSpec[] {
    return [...this.byName.values()].map(specOf);
  }

  async execute(call: ToolCall, ctx: Omit<ToolContext, 'signal'> & { signal: AbortSignal }): Promise<ToolOutcome> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const tool = this.byName.get(call.name);
    if (!tool)
      return {
        ok: false,
        error: { code: 'UNKNOWN_TOOL', message: `no tool named "${call.name}"` },
        durationMs: elapsed(),
      };

    let raw: unknown;
    try {
      raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return {
        ok: false,
        error: { code: 'INVALID_ARGUMENTS', message: 'arguments are not valid JSON' },
        durationMs: elapsed(),
      };
    }
    const parsed = tool.parameters.safeParse(raw);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: detail }, durationMs: elapsed() };
    }

    const deadline = new AbortController();
    const onParentAbort = () => deadline.abort(ctx.signal.reason);
    // A reply stopped before the tool starts: an 'abort' listener would never fire.
    if (ctx.signal.aborted) onParentAbort();
    else ctx.signal.addEventListener('abort', onParentAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((res) => {
      timer = setTimeout(() => {
        // Settle the race first: a tool that rejects as soon as its signal aborts must still
        // be reported as TOOL_TIMEOUT, not TOOL_FAILED.
        res('timeout');
        deadline.abort('timeout');
      }, this.timeoutMs);
    });
    try {
      // A tool that ignores its signal still cannot hold the reply past the timeout.
      const result = await Promise.race([tool.run(parsed.data, { ...ctx, signal: deadline.signal }), timedOut]);
      if (result === 'timeout') {
        return {
          ok: false,
          error: { code: 'TOOL_TIMEOUT', message: `the tool did not answer within ${this.timeoutMs} ms` },
          durationMs: elapsed(),
        };
      }
      return { ok: true, result, durationMs: elapsed() };
    } catch (err) {
      return {
        ok: false,
        error: { code: 'TOOL_FAILED', message: err instanceof Error ? err.message : String(err) },
        durationMs: elapsed(),
      };
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onParentAbort);
    }
  }
}

const specCache = new WeakMap<ToolDefinition, ToolSpec>();

function specOf(t: ToolDefinition): ToolSpec {
  let spec = specCache.get(t);
  if (!spec) {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(t.parameters) as Record<string, unknown>;
    spec = { name: t.name, description: t.description, parameters };
    specCache.set(t, spec);
  }
  return spec;
}
