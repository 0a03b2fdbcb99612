// The operator console's entry: mounts the app on #app.
import { render } from 'preact';
import { App } from './app.js';
import { I18nProvider } from './lib/i18n.js';
import { takeTokenFromUrl } from './lib/session.js';
import './styles.css';

takeTokenFromUrl();
render(
  <I18nProvider>
    <App />
  </I18nProvider>,
  document.getElementById('app')!,
);
