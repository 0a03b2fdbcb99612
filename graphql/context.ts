// What every resolver is given: the store, the authenticated operator, per-request loaders
// (batching, no N+1), the operator actions and the live-update pub/sub.
import type { Store } from '../src/store/store.js';
import type { OpsToken } from '../src/config/env.js';
import type { OpsDeps } from '../src/ops/opsDeps.js';
import { createLoaders, type Loaders } from './loaders.js';
import type { GatewayPubSub } from './pubsub.js';

export interface GraphQLContext {
  store: Store;
  /** The authenticated operator; requests without a valid token never reach a resolver. */
  viewer: OpsToken;
  loaders: Loaders;
  ops: OpsDeps;
  pubsub: GatewayPubSub;
  /**
   * The API's origin as this request reached it (its scheme and Host header), which links the
   * API hands out (export downloads) point at: the caller reached the API there already.
   */
  baseUrl: string;
}

export function createContext(
  o: { ops: OpsDeps; pubsub: GatewayPubSub },
  viewer: OpsToken,
  baseUrl: string,
): GraphQLContext {
  return { store: o.ops.store, viewer, loaders: createLoaders(o.ops.store), ops: o.ops, pubsub: o.pubsub, baseUrl };
}
