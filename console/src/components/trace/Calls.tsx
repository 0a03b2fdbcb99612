// A turn's model calls, tool calls and deliveries, as recorded in its trace.
import type { EventView } from '../../lib/types.js';
import { delivery, llmCall, toolCall } from '../../lib/trace.js';
import { formatMs, formatNumber } from '../../lib/time.js';
import { Badge, Collapsible, Json, Time } from '../ui.js';

export function LlmCalls(p: { events: EventView[] }) {
  return (
    <div class="cards" data-testid="llm-calls">
      {p.events.map((e) => {
        const c = llmCall(e);
        return (
          <div class="card" data-testid="llm-call">
            <div class="card-head">
              <strong>{c.task ?? `round ${c.round ?? '?'}`}</strong> <span class="mono">{c.model}</span>{' '}
              <span class="muted small">{c.api}</span>{' '}
              {c.error ? (
                <Badge tone="bad">error</Badge>
              ) : (
                c.finishReason && <Badge tone="plain">{c.finishReason}</Badge>
              )}
              <span class="right muted small">
                <Time at={e.at} />
              </span>
            </div>
            <div class="metrics">
              <span>
                TTFT <strong>{formatMs(c.ttftMs)}</strong>
              </span>
              <span>
                duration <strong>{formatMs(c.durationMs)}</strong>
              </span>
              <span>
                prompt <strong>{formatNumber(c.usage?.promptTokens)}</strong>
              </span>
              <span>
                completion <strong>{formatNumber(c.usage?.completionTokens)}</strong>
              </span>
              <span>
                total <strong>{formatNumber(c.usage?.totalTokens)}</strong> tokens
              </span>
            </div>
            {c.error && <div class="error-box">{c.error}</div>}
            {c.toolCalls.length > 0 && (
              <div class="small">
                Asked for:{' '}
                {c.toolCalls.map((t) => (
                  <span class="chip mono">
                    {t.name}({t.arguments})
                  </span>
                ))}
              </div>
            )}
            {(c.output ?? c.partial) && (
              <Collapsible summary="Output">
                <pre class="prewrap">{c.output ?? c.partial}</pre>
              </Collapsible>
            )}
            {c.appended.length > 0 && (
              <Collapsible summary={`Appended by earlier tool rounds (${c.appended.length} messages)`}>
                {c.appended.map((m) => (
                  <pre class="prewrap">
                    {m.role}: {m.text}
                  </pre>
                ))}
              </Collapsible>
            )}
          </div>
        );
      })}
    </div>
  );
}

export function ToolCalls(p: { events: EventView[] }) {
  return (
    <div class="cards" data-testid="tool-calls">
      {p.events.map((e) => {
        const t = toolCall(e);
        return (
          <div class="card" data-testid="tool-call">
            <div class="card-head">
              <strong class="mono">{t.name}</strong>{' '}
              {t.ok ? <Badge tone="ok">ok</Badge> : <Badge tone="bad">failed</Badge>}
              <span class="muted small">
                round {t.round ?? '?'} · {formatMs(t.durationMs)}
              </span>
            </div>
            <div class="two-col">
              <div>
                <div class="label">Arguments</div>
                <Json value={t.arguments} />
              </div>
              <div>
                <div class="label">{t.ok ? 'Result' : 'Error'}</div>
                <Json value={t.ok ? t.result : t.error} />
              </div>
            </div>
          </div>
        );
      })}
    </div>
  );
}

export function Deliveries(p: { events: EventView[] }) {
  return (
    <table class="table stack compact" data-testid="deliveries">
      <thead>
        <tr>
          <th scope="col">At</th>
          <th scope="col">Platform</th>
          <th scope="col">Result</th>
          <th scope="col">Platform message ids</th>
          <th scope="col">Errors</th>
        </tr>
      </thead>
      <tbody>
        {p.events.map((e) => {
          const d = delivery(e);
          return (
            <tr>
              <td data-label="At">
                <Time at={e.at} />
              </td>
              <td data-label="Platform">{d.platform}</td>
              <td data-label="Result">
                {d.skipped ? (
                  <Badge tone="muted">skipped</Badge>
                ) : d.ok ? (
                  <Badge tone="ok">delivered</Badge>
                ) : (
                  <Badge tone="bad">failed</Badge>
                )}
              </td>
              <td data-label="Platform message ids" class="mono small">
                {d.platformMessageIds.join(', ') || '—'}
              </td>
              <td data-label="Errors" class="small">
                {[d.error, d.intermediateError && `while streaming: ${d.intermediateError}`]
                  .filter(Boolean)
                  .join('; ') || '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Everything else the turn recorded (warnings, floor decisions, background tasks…). */
export function OtherEvents(p: { events: EventView[] }) {
  return (
    <div class="cards">
      {p.events.map((e) => (
        <Collapsible
          summary={
            <>
              <Badge tone={e.kind === 'warning' ? 'warn' : 'plain'}>{e.kind}</Badge>{' '}
              {typeof e.data.task === 'string'
                ? e.data.task
                : typeof e.data.category === 'string'
                  ? e.data.category
                  : ''}{' '}
              <span class="muted small">
                <Time at={e.at} />
              </span>
            </>
          }
        >
          <Json value={e.data} />
        </Collapsible>
      ))}
    </div>
  );
}
