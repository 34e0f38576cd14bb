import { version } from '../../../../package.json';

/** The version of this build, as the update check compares it. */
export const APP_VERSION: string = version;
