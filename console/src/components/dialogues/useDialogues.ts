// Why a hook: the page only lays out; this holds the address's filters and the polled, growing list.
import { useState } from 'preact/hooks';
import { graphql, type VariablesOf } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { navigate } from '../../lib/router.js';
import { DialogueSummaryFields, nodes } from '../../lib/types.js';

const QUERY = graphql(
  `
    query Dialogues($first: Int!, $platform: Platform, $type: DialogueType, $status: DialogueStatus) {
      dialogues(first: $first, platform: $platform, type: $type, status: $status) {
        edges {
          node {
            ...DialogueSummaryFields
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
  [DialogueSummaryFields],
);
type Filters = VariablesOf<typeof QUERY>;

export const PAGE = 50;

/** The dialogues the address's filters select, refreshed every 5 s, PAGE more at a time. */
export function useDialogues(query: URLSearchParams) {
  const platform = query.get('platform') ?? '';
  const type = query.get('type') ?? '';
  const [first, setFirst] = useState(PAGE);
  const q = useQuery(
    QUERY,
    // Filters from the address: a value the API does not know is refused, shown as the list's error.
    {
      first,
      platform: (platform || null) as Filters['platform'],
      type: (type || null) as Filters['type'],
      status: null,
    },
    { pollMs: 5000 },
  );
  const setFilter = (k: string, v: string) => {
    const next = new URLSearchParams(query);
    if (v) next.set(k, v);
    else next.delete(k);
    navigate(`/dialogues${next.size ? `?${next.toString()}` : ''}`, { replace: true });
  };
  const more = () => setFirst((n) => n + PAGE);
  return { platform, type, q, list: nodes(q.data?.dialogues), setFilter, more };
}

export type DialogueRow = ReturnType<typeof useDialogues>['list'][number];
