/** Where a return path is resolved: only its path, query and fragment survive, so the host is a stand-in. */
const BASE = 'http://return-path.invalid';
/** Percent-decoding rounds tried when looking for a path that decodes into another origin. */
const DECODE_ROUNDS = 3;

/** A path that a browser would read as scheme-relative (`//host`, `/\host`) once it follows it. */
const leavesTheSite = (path: string): boolean => /^[/\\]{2}/.test(path);

/** The path decoded as many rounds as it takes to settle (bounded), or undefined if it is not valid escaping. */
function decodedForms(path: string): string[] | undefined {
  const forms = [path];
  let current = path;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

/**
 * The only return targets after sign-in: a path on this origin, judged on what the browser will follow.
 * The candidate is resolved (dot segments, `%2e` dots), and the result is refused when it, or any of its
 * percent-decoded forms, is scheme-relative (`//host`, `/\host`), holds control characters or backslashes,
 * or resolves to another origin. Anything refused answers `undefined`.
 */
export function safeReturnPath(candidate: unknown): string | undefined {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 2048) return undefined;
  if (!candidate.startsWith('/') || leavesTheSite(candidate)) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(candidate)) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(candidate, BASE);
  } catch {
    return undefined;
  }
  if (resolved.origin !== BASE) return undefined;
  const forms = decodedForms(resolved.pathname);
  // eslint-disable-next-line no-control-regex
  if (!forms || forms.some((form) => leavesTheSite(form) || /[\u0000-\u001f\u007f\\]/.test(form))) {
    return undefined;
  }
  const result = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return new URL(result, BASE).origin === BASE ? result : undefined;
}
