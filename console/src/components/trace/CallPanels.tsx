// The turn's model calls, tool calls, deliveries, other events and memory links, a panel each.
import { useI18n } from '../../lib/i18n.js';
import type { traceParts, TurnTraceView } from '../../lib/turnTraceQuery.js';
import { Empty, Panel } from '../ui.js';
import { Deliveries, LlmCalls, OtherEvents, ToolCalls } from './Calls.js';

export function CallPanels(p: { trace: TurnTraceView; parts: ReturnType<typeof traceParts> }) {
  const i18n = useI18n();
  const tr = p.trace;
  const { events, llmIds, toolIds, deliveries, rest } = p.parts;
  return (
    <>
      <Panel title={i18n.t('turnTrace.llmCalls', { n: tr.llmCalls.length })}>
        {tr.llmCalls.length ? (
          <LlmCalls events={events.filter((e) => llmIds.has(e.id))} />
        ) : (
          <Empty>{i18n.t('turnTrace.noLlm')}</Empty>
        )}
      </Panel>
      <Panel title={i18n.t('turnTrace.toolCalls', { n: tr.toolCalls.length })}>
        {tr.toolCalls.length ? (
          <ToolCalls events={events.filter((e) => toolIds.has(e.id))} />
        ) : (
          <Empty>{i18n.t('turnTrace.noTool')}</Empty>
        )}
      </Panel>
      <Panel title={i18n.t('turnTrace.deliveries', { n: deliveries.length })}>
        {deliveries.length ? <Deliveries events={deliveries} /> : <Empty>{i18n.t('turnTrace.noDelivery')}</Empty>}
      </Panel>
      {rest.length > 0 && (
        <Panel title={i18n.t('turnTrace.otherEvents')}>
          <OtherEvents events={rest} />
        </Panel>
      )}
      {tr.memoryLinks.length > 0 && (
        <Panel title={i18n.t('turnTrace.memoryLinks')}>
          <div class="small muted">{i18n.t('turnTrace.memoryLinksHelp')}</div>
          <div>
            {tr.memoryLinks.map((id) => (
              <span class="chip mono">{id}</span>
            ))}
          </div>
        </Panel>
      )}
    </>
  );
}
