// Live data: GraphQL subscriptions over SSE with graphql-sse (yoga's SSE transport, one
// connection per subscription). The hook reports whether the stream is live so pages can show it.
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-sse';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TadaDocumentNode } from './graphql.js';
import { getToken } from './session.js';

let client: Client | undefined;
let clientToken: string | null = null;

function sseClient(): Client {
  const token = getToken();
  if (!client || token !== clientToken) {
    client?.dispose();
    clientToken = token;
    client = createClient({
      url: `${location.origin}/graphql`,
      headers: () => ({ authorization: `Bearer ${getToken() ?? ''}` }),
      retryAttempts: 20,
    });
  }
  return client;
}

export type LiveState = 'off' | 'connecting' | 'live' | 'error';

/** Subscribes while `enabled`; `onData` gets each event's data. Resubscribes when `key` changes. */
export function useSubscription<T, V>(
  document: TadaDocumentNode<T, V>,
  variables: V,
  onData: (data: T) => void,
  enabled = true,
): LiveState {
  const [state, setState] = useState<LiveState>(enabled ? 'connecting' : 'off');
  const handler = useRef(onData);
  handler.current = onData;
  const key = JSON.stringify(variables);
  useEffect(() => {
    if (!enabled) {
      setState('off');
      return;
    }
    setState('connecting');
    const dispose = sseClient().subscribe<T>(
      { query: print(document), variables: JSON.parse(key) as Record<string, unknown> },
      {
        next: (r) => {
          setState('live');
          if (r.data) handler.current(r.data);
        },
        error: () => setState('error'),
        complete: () => setState('off'),
      },
      { connected: () => setState('live') },
    );
    return dispose;
  }, [document, key, enabled]);
  return state;
}
