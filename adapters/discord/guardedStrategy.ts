// discord.js applies each gateway dispatch to its caches synchronously inside the WebSocket
// message handler; a payload it cannot digest (say `embeds` that is not an array) throws there
// and becomes an unhandled rejection, which ends a Node process. This sharding strategy is the
// stock SimpleShardingStrategy with one change: the manager it reports shard events to catches
// what a listener throws, so one bad dispatch is logged and skipped and the connection lives on.
import { SimpleShardingStrategy, type IShardingStrategy, type WebSocketOptions } from 'discord.js';

type WsManager = Parameters<NonNullable<WebSocketOptions['buildStrategy']>>[0];
type Emit = (event: string, payload?: unknown) => boolean;

/** For `new Client({ ws: { buildStrategy: guardedStrategy(onError) } })`. */
export function guardedStrategy(
  onError: (err: unknown, event: string, payload: unknown) => void,
): (manager: WsManager) => IShardingStrategy {
  return (manager) => {
    const guarded = new Proxy(manager, {
      get(target, prop) {
        if (prop === 'emit') {
          const emit: Emit = target.emit.bind(target);
          return (event: string, payload?: unknown): boolean => {
            try {
              return emit(event, payload);
            } catch (err) {
              onError(err, event, payload);
              return true;
            }
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        // Methods run on the real manager (it keeps private state the proxy cannot reach).
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    return new SimpleShardingStrategy(guarded);
  };
}
