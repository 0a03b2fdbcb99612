// Each context the turn built: its prompt parts, then the memories and knowledge it recalled.
import { useI18n } from '../../lib/i18n.js';
import { contextBuild } from '../../lib/trace.js';
import type { EventView } from '../../lib/types.js';
import { Empty, Panel, Time } from '../ui.js';
import { KnowledgePassages } from './KnowledgePassages.js';
import { PromptParts } from './PromptParts.js';
import { RecalledMemories } from './RecalledMemories.js';

export function ContextPanels(p: { contexts: EventView[] }) {
  const i18n = useI18n();
  const { contexts } = p;
  if (contexts.length === 0)
    return (
      <Panel title={i18n.t('turnTrace.context')}>
        <Empty>{i18n.t('turnTrace.noContext')}</Empty>
      </Panel>
    );
  return (
    <>
      {contexts.map((e, i) => {
        const ctx = contextBuild(e);
        return (
          <>
            <Panel
              title={
                <>
                  {i18n.t('turnTrace.context')}
                  {contexts.length > 1 ? ` #${i + 1}` : ''}{' '}
                  <span class="muted small">
                    <Time at={e.at} />
                  </span>
                </>
              }
            >
              <PromptParts ctx={ctx} />
            </Panel>
            {ctx.recall && (
              <Panel title={i18n.t('turnTrace.recalled')}>
                <RecalledMemories recall={ctx.recall} />
              </Panel>
            )}
            {ctx.knowledge && (
              <Panel title={i18n.t('turnTrace.knowledge')}>
                <KnowledgePassages knowledge={ctx.knowledge} />
              </Panel>
            )}
          </>
        );
      })}
    </>
  );
}
