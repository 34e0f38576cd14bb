/**
 * The release this build is, as the update check compares it. A release sets VITE_APP_VERSION at build
 * time; without it the build is 1.0.0, the release the travel API stand-in announces by default.
 */
const configured: unknown = import.meta.env.VITE_APP_VERSION;
export const APP_VERSION: string = typeof configured === 'string' && configured ? configured : '1.0.0';

/** The next minor release after `version` (1.4.2 -> 1.5.0), for announcing an update in demo mode. */
export function nextMinorVersion(version: string): string {
  const [major = 1, minor = 0] = version.split('.').map(Number);
  return `${major}.${minor + 1}.0`;
}
