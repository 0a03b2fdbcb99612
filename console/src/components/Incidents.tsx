// The incidents feed: model errors and timeouts, delivery failures and unanswered turns, each
// linked to its turn's trace (or its dialogue when the incident has no turn).
import { Link } from '../lib/router.js';
import { INCIDENT_LABELS, type IncidentView } from '../lib/health.js';
import { Badge, Empty, Time } from './ui.js';

export function Incidents(p: { list: IncidentView[]; hours: number }) {
  if (p.list.length === 0) return <Empty>No incidents in the last {p.hours} hours.</Empty>;
  return (
    <table class="table" data-testid="incidents">
      <thead>
        <tr>
          <th>When</th>
          <th>Kind</th>
          <th>What happened</th>
          <th>Trace</th>
        </tr>
      </thead>
      <tbody>
        {p.list.map((i) => (
          <tr data-testid="incident" data-kind={i.kind}>
            <td>
              <Time at={i.at} />
            </td>
            <td>
              <Badge tone={i.kind === 'unanswered' ? 'warn' : 'bad'}>{INCIDENT_LABELS[i.kind]}</Badge>
            </td>
            <td class="incident-message">{i.message}</td>
            <td>
              {i.turnId ? (
                <Link data-testid="incident-trace" href={`/turns/${encodeURIComponent(i.turnId)}`}>
                  turn →
                </Link>
              ) : (
                <Link href={`/dialogues/${encodeURIComponent(i.dialogueId)}`}>dialogue →</Link>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
