// Who changed the config, when, and what (each field old → new), newest first.
import { useEffect, useRef } from 'preact/hooks';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { Empty, ErrorBox, Panel, Time } from '../ui.js';

const HISTORY = graphql(`
  query ConfigHistory {
    configHistory {
      id
      at
      by
      action
      version
      changes {
        path
        from
        to
      }
    }
  }
`);

export function ConfigHistory(p: { version: number }) {
  const { t } = useI18n();
  const q = useQuery(HISTORY);
  const seen = useRef(p.version);
  useEffect(() => {
    if (p.version !== seen.current) void q.reload();
    seen.current = p.version;
  }, [p.version]);
  const show = (v: unknown): string =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : v === null || v === undefined
        ? t('trace.history.none')
        : JSON.stringify(v);
  const list = q.data?.configHistory ?? [];
  return (
    <Panel title={t('trace.history.title')}>
      <ErrorBox error={q.error} />
      {list.length === 0 ? (
        <Empty>{t('trace.history.empty')}</Empty>
      ) : (
        <table class="table stack compact" data-testid="config-history">
          <thead>
            <tr>
              <th scope="col">{t('trace.history.when')}</th>
              <th scope="col">{t('trace.history.who')}</th>
              <th scope="col">{t('trace.history.what')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((e) => (
              <tr data-testid="config-history-entry">
                <td data-label={t('trace.history.when')}>
                  <Time at={e.at} /> <span class="muted small">v{e.version}</span>
                </td>
                <td data-label={t('trace.history.who')}>{e.by ?? t('trace.history.unknown')}</td>
                <td data-label={t('trace.history.what')}>
                  {e.action === 'reset' && <div class="muted small">{t('trace.history.reset')}</div>}
                  <ul class="plain-list">
                    {e.changes.map((c) => (
                      <li>
                        <span class="mono">{c.path}</span>: {show(c.from)} → <strong>{show(c.to)}</strong>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
