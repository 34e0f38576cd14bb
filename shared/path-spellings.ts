/** Values for route parameters: ids get a well-formed UUID, anything else a plain word. */
const SAMPLE_ID = '3f0c9a4e-8b1d-4c2e-9a55-0123456789ab';

/** A concrete path for a route pattern (`/api/trips/:tripId` -> `/api/trips/3f0c...`, `*` -> `x`). */
export function concretePath(pattern: string): string {
  return pattern
    .replace(/:(\w+)(\([^)]*\))?/g, (_match, name: string) => (/id$/i.test(name) ? SAMPLE_ID : 'x'))
    .replace(/\*/g, 'x');
}

function percentEncoded(character: string, upper: boolean): string {
  const hex = character.codePointAt(0)!.toString(16).padStart(2, '0');
  return `%${upper ? hex.toUpperCase() : hex.toLowerCase()}`;
}

/**
 * Other spellings of the same path: in each segment, each of its characters percent-encoded in turn, in
 * upper and in lower hex (one spelling when the two agree). Separators are never encoded. A sample id
 * (a route parameter's value, which the router hands over decoded either way) gets its first character
 * encoded only, so the count stays in the hundreds per route.
 */
export function encodedSpellings(path: string): string[] {
  const segments = path.split('/');
  const spellings = new Set<string>();
  segments.forEach((segment, index) => {
    const positions = segment === SAMPLE_ID ? 1 : segment.length;
    for (let position = 0; position < positions; position += 1) {
      for (const upper of [true, false]) {
        const spelled = [...segments];
        spelled[index] =
          segment.slice(0, position) +
          percentEncoded(segment[position]!, upper) +
          segment.slice(position + 1);
        spellings.add(spelled.join('/'));
      }
    }
  });
  return [...spellings];
}
