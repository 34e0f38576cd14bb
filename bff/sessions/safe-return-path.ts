/**
 * The only return targets after sign-in: a path on this origin. Anything else (absolute URLs,
 * scheme-relative `//host`, backslash tricks, control characters) is refused with `undefined`.
 */
export function safeReturnPath(candidate: unknown): string | undefined {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 2048) return undefined;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\'))
    return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(candidate)) return undefined;
  const base = 'http://return-path.invalid';
  let resolved: URL;
  try {
    resolved = new URL(candidate, base);
  } catch {
    return undefined;
  }
  if (resolved.origin !== base) return undefined;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
