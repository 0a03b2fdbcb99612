// The LlmClient port over the provider chain: replies and background tasks call it like any
// client; it answers from the first provider that can, says which (and which it passed over),
// and offers tools only to models that take them — a model that refuses them (HTTP 400 naming
// tools) is asked the same thing once more without them, and never offered them again.
import { describeApiError } from './describeError.js';
import type { LlmProvider } from './provider.js';
import type { ProviderChain } from './providerChain.js';
import { refusesTools } from './providerFailure.js';
import { LlmFailure, toLlmFailure, type CompletionRequest, type CompletionResult, type LlmClient } from './types.js';

export class ChainLlmClient implements LlmClient {
  readonly api: 'chat' | 'responses';

  constructor(
    private readonly chain: ProviderChain,
    private readonly now: () => number = Date.now,
  ) {
    this.api = chain.entries[0]!.provider.llm.api;
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    let toolsOmitted = false;
    const routed = await this.chain.run(
      req.model,
      req.signal,
      async ({ provider, model }, signal, firstToken) => {
        const call: CompletionRequest = {
          ...req,
          model,
          signal,
          onFirstToken: () => {
            firstToken();
            req.onFirstToken?.();
          },
        };
        const r = await this.offeringTools(provider, call);
        toolsOmitted = r.toolsOmitted;
        return r.result;
      },
      { waitForFirstToken: true },
    );
    if (routed.ok) return { ...routed.value, ...routed.route, ...(toolsOmitted ? { toolsOmitted: true } : {}) };
    const failure =
      routed.error instanceof LlmFailure
        ? routed.error
        : toLlmFailure(routed.error, req.signal, { text: '', durationMs: 0 }, describeApiError);
    throw new LlmFailure(failure.error, failure.partial, failure.aborted, routed.route);
  }

  /** The call with its tools where the model takes them, else without (learning it once). */
  private async offeringTools(
    p: LlmProvider,
    req: CompletionRequest,
  ): Promise<{ result: CompletionResult; toolsOmitted: boolean }> {
    if (!req.tools?.length) return { result: await p.llm.complete(req), toolsOmitted: false };
    if (!(await p.tools.mayOffer(req.model, req.signal)))
      return { result: await p.llm.complete(withoutTools(req)), toolsOmitted: true };
    try {
      const result = await p.llm.complete({
        ...req,
        onOpen: () => {
          p.tools.accepted(req.model);
          req.onOpen?.();
        },
      });
      p.tools.accepted(req.model);
      return { result, toolsOmitted: false };
    } catch (err) {
      if (!refusesTools(err)) {
        p.tools.unknown(req.model);
        throw err;
      }
      p.refusedTools(req.model, this.now());
      return { result: await p.llm.complete(withoutTools(req)), toolsOmitted: true };
    }
  }
}

function withoutTools(req: CompletionRequest): CompletionRequest {
  const bare = { ...req };
  delete bare.tools;
  return bare;
}
