/** What other features use of the update check: the running version (the demo panel announces the next). */
export { APP_VERSION, nextMinorVersion } from './app-version.ts';
