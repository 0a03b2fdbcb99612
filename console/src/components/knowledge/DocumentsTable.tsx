// Why a component: the stored documents' table (size, chunks, status, delete) is its own view.
import { formatNumber } from '../../lib/time.js';
import { useI18n } from '../../lib/i18n.js';
import { fileSize } from '../../lib/upload.js';
import { StatusBadge, Time } from '../ui.js';
import type { DocumentView } from './useKnowledge.js';

export function DocumentsTable(p: { list: DocumentView[]; canAct: boolean; onRemove: (d: DocumentView) => unknown }) {
  const { t } = useI18n();
  return (
    <table class="table stack" data-testid="documents">
      <thead>
        <tr>
          <th scope="col">{t('th.name')}</th>
          <th scope="col">{t('th.type')}</th>
          <th scope="col" class="num">
            {t('th.size')}
          </th>
          <th scope="col" class="num">
            {t('th.chunks')}
          </th>
          <th scope="col">{t('th.status')}</th>
          <th scope="col">{t('th.uploaded')}</th>
          {p.canAct && <th scope="col" />}
        </tr>
      </thead>
      <tbody>
        {p.list.map((d) => (
          <tr data-testid="document">
            <td data-label={t('th.name')} class="strong">
              {d.name}
            </td>
            <td data-label={t('th.type')}>
              {d.type} <span class="muted small">{d.mime}</span>
            </td>
            <td data-label={t('th.size')} class="num">
              {fileSize(d.size)}
            </td>
            <td data-label={t('th.chunks')} class="num">
              {formatNumber(d.chunkCount)}
            </td>
            <td data-label={t('th.status')}>
              <StatusBadge status={d.status} />
            </td>
            <td data-label={t('th.uploaded')}>
              <Time at={d.createdAt} />
            </td>
            {p.canAct && (
              <td class="num">
                <button class="small danger" onClick={() => p.onRemove(d)}>
                  {t('common.delete')}
                </button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
