// The operator console's entry: mounts the app on #app.
import { render } from 'preact';
import { App } from './app.js';
import { takeTokenFromUrl } from './lib/session.js';
import './styles.css';

takeTokenFromUrl();
render(<App />, document.getElementById('app')!);
