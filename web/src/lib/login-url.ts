/** The BFF's sign-in entry, returning the traveler to a local path afterwards. */
export function loginUrl(returnTo: string = currentPath()): string {
  const local = returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/';
  return `/auth/login?returnTo=${encodeURIComponent(local)}`;
}

export function currentPath(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}
