// `npm run build:console` (also run before `npm start` and `npm test`): builds the operator
// console when its sources changed since the last build; `--force` always builds.
import { buildConsole, CONSOLE_DIST } from './buildConsole.js';

const started = Date.now();
const built = await buildConsole({ force: process.argv.includes('--force') });
console.log(
  built ? `console built into ${CONSOLE_DIST} in ${Date.now() - started} ms` : 'console is up to date (console/dist)',
);
