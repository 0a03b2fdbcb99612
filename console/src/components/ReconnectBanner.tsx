// The strip shown while the gateway does not answer (network error, timeout, 5xx): the operator
// stays signed in and the pages keep retrying; it goes once a request succeeds again.
import { useGatewayDown } from '../lib/net.js';

// Kept here until the console has a string catalogue; the browser's language picks one.
const TEXT = {
  en: 'The gateway is not answering. Reconnecting…',
  zh: '网关暂时无响应，正在重新连接…',
};
const lang = (): keyof typeof TEXT => (navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en');

export function ReconnectBanner() {
  if (!useGatewayDown()) return null;
  return (
    <div class="reconnect-banner" role="status" data-testid="reconnecting">
      {TEXT[lang()]}
    </div>
  );
}
