// The strip shown while the gateway does not answer (network error, timeout, 5xx): the operator
// stays signed in and the pages keep retrying; it goes once a request succeeds again.
import { useGatewayDown } from '../lib/net.js';
import { useI18n } from '../lib/i18n.js';

export function ReconnectBanner() {
  const { t } = useI18n();
  if (!useGatewayDown()) return null;
  return (
    <div class="reconnect-banner" role="status" data-testid="reconnecting">
      {t('common.reconnecting')}
    </div>
  );
}
