// The runs panel: its count in the title, and loading, none yet or the runs table.
import type { ComponentProps } from 'preact';
import { useI18n } from '../../lib/i18n.js';
import { Empty, Loading, Panel } from '../ui.js';
import { RunsTable } from './RunsTable.js';

export function RunsPanel(p: ComponentProps<typeof RunsTable> & { loading: boolean; more: boolean }) {
  const { t } = useI18n();
  const n = p.runs.length;
  return (
    <Panel title={`${t('reflections.runs')}${n ? ` (${n}${p.more ? '+' : ''})` : ''}`}>
      {p.loading ? <Loading what="runs" /> : n === 0 ? <Empty>{t('reflections.none')}</Empty> : <RunsTable {...p} />}
    </Panel>
  );
}
