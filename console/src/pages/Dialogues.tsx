// Every dialogue, most recently active first, refreshed every few seconds (the API has no
// subscription across all dialogues; a dialogue's own page is live).
import { Empty, ErrorBox, Loading, PageHeader, Panel, Select } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { PAGE, useDialogues } from '../components/dialogues/useDialogues.js';
import { DialogueTable } from '../components/dialogues/DialogueTable.js';

export function Dialogues(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const all = { value: '', label: t('common.all') };
  const { platform, type, q, list, setFilter, more } = useDialogues(p.query);
  return (
    <>
      <PageHeader
        title={t('dialogues.title')}
        sub={t('dialogues.sub')}
        actions={
          <>
            <Select
              label={t('th.platform')}
              value={platform}
              options={[all, ...['telegram', 'discord', 'web'].map((v) => ({ value: v, label: v }))]}
              onChange={(v) => setFilter('platform', v)}
            />
            <Select
              label={t('th.type')}
              value={type}
              options={[
                all,
                ...['human_ai', 'group', 'lio_group', 'ai_ai', 'ai_self'].map((v) => ({ value: v, label: v })),
              ]}
              onChange={(v) => setFilter('type', v)}
            />
          </>
        }
      />
      <Panel>
        {/* Where the list would be: a failed refresh is named, never an endless "Loading…". */}
        <div data-testid="dialogues-error">
          <ErrorBox error={q.error} title={q.data ? t('dialogues.refreshFailed') : t('dialogues.loadFailed')} />
        </div>
        {!q.data ? (
          !q.error && <Loading what="dialogues" />
        ) : list.length === 0 ? (
          <Empty>{t('dialogues.empty')}</Empty>
        ) : (
          <DialogueTable list={list} />
        )}
        {q.data?.dialogues.pageInfo?.hasNextPage && (
          <div class="more">
            <button onClick={more}>{t('dialogues.showMore', { n: PAGE })}</button>
          </div>
        )}
      </Panel>
    </>
  );
}
