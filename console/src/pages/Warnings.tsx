// Warnings, one row per dialogue and category (counted on repeats), most recently raised first.
import { useQuery } from '../lib/hooks.js';
import { Link } from '../lib/router.js';
import { nodes, type Conn } from '../lib/types.js';
import { Badge, Empty, ErrorBox, Json, Loading, PageHeader, Panel, Time } from '../components/ui.js';

interface WarningView {
  id: string;
  category: string;
  count: number;
  data: unknown;
  firstAt: string;
  lastAt: string;
  firstTurnId: string | null;
  lastTurnId: string | null;
  dialogueId: string;
  dialogue: { title: string | null } | null;
}

const QUERY = `query Warnings { warnings(first: 100) { edges { node {
  id category count data firstAt lastAt firstTurnId lastTurnId dialogueId dialogue { title } } } } }`;

export function Warnings() {
  const q = useQuery<{ warnings: Conn<WarningView> }>(QUERY, {}, { pollMs: 15_000 });
  const list = nodes(q.data?.warnings);
  return (
    <>
      <PageHeader title="Warnings" sub="Raised once per dialogue and kind, then counted. Refreshes every 15 s." />
      <ErrorBox error={q.error} />
      <Panel>
        {!q.data ? (
          <Loading what="warnings" />
        ) : list.length === 0 ? (
          <Empty>No warnings. Nothing needs attention.</Empty>
        ) : (
          <table class="table" data-testid="warnings">
            <thead>
              <tr>
                <th>Kind</th>
                <th>Dialogue</th>
                <th class="num">Times</th>
                <th>First</th>
                <th>Last</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {list.map((w) => (
                <tr>
                  <td>
                    <Badge tone="warn">{w.category}</Badge>
                  </td>
                  <td>
                    <Link href={`/dialogues/${encodeURIComponent(w.dialogueId)}`}>
                      {w.dialogue?.title ?? w.dialogueId}
                    </Link>
                  </td>
                  <td class="num">{w.count}</td>
                  <td>
                    <Time at={w.firstAt} />
                    {w.firstTurnId && (
                      <div>
                        <Link class="small" href={`/turns/${encodeURIComponent(w.firstTurnId)}`}>
                          turn →
                        </Link>
                      </div>
                    )}
                  </td>
                  <td>
                    <Time at={w.lastAt} />
                    {w.lastTurnId && w.lastTurnId !== w.firstTurnId && (
                      <div>
                        <Link class="small" href={`/turns/${encodeURIComponent(w.lastTurnId)}`}>
                          turn →
                        </Link>
                      </div>
                    )}
                  </td>
                  <td class="details">
                    <Json value={w.data} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
    </>
  );
}
