// Query limits (graphql-armor) and the introspection switch. Rejections carry the stable code
// QUERY_TOO_COMPLEX so clients can tell "ask for less" from a broken query.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxTokens: number;
}

/** Deep enough for dialogue → sessions → turns → messages → attachments with connections. */
export const DEFAULT_LIMITS: QueryLimits = { maxDepth: 14, maxAliases: 15, maxCost: 1_000_000, maxTokens: 3_000 };

function tagLimit(_ctx: unknown, error: GraphQLError): void {
  // GraphQLError's extensions object is plain and ours to annotate before it is reported.
  (error.extensions as Record<string, unknown>).code = 'QUERY_TOO_COMPLEX';
}

export function limitPlugins(limits: QueryLimits, o: { introspection: boolean }): Plugin[] {
  const callbacks = { onReject: [tagLimit], propagateOnRejection: true };
  const plugins: Plugin[] = [
    EnvelopArmorPlugin({
      maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, ...callbacks },
      maxAliases: { n: limits.maxAliases, ...callbacks },
      // Cost ≈ the most field values a query can return: armor multiplies each connection's
      // children by its `first`/`last`; depth adds nothing more (factor 1), the depth limit
      // guards depth.
      costLimit: { maxCost: limits.maxCost, depthCostFactor: 1, ignoreIntrospection: true, ...callbacks },
      maxTokens: { n: limits.maxTokens, ...callbacks },
      maxDirectives: { n: 10, ...callbacks },
      blockFieldSuggestion: { enabled: !o.introspection },
    }),
  ];
  if (!o.introspection) {
    plugins.push({
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      },
    });
  }
  return plugins;
}
