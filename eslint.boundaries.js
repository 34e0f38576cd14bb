/**
 * The one-way flow of the architecture: shared <- bff, web, upstream; nothing crosses sideways.
 * Kept apart from eslint.config.js so that a test can prove each zone fails the lint.
 */
const sideways = (from, targets, message) =>
  targets.map((target) => ({ target: `./${from}`, from: `./${target}`, message }));

export const productionZones = [
  ...sideways(
    'web',
    ['bff', 'upstream', 'e2e'],
    'web/ talks to the BFF over HTTP only; import from shared/ instead.',
  ),
  ...sideways('bff', ['web', 'e2e'], 'bff/ must not import the SPA; shared contracts live in shared/.'),
  ...sideways(
    'upstream',
    ['bff', 'web', 'e2e'],
    'The stand-ins are external systems; they import only shared/.',
  ),
  ...sideways(
    'shared',
    ['bff', 'web', 'upstream', 'e2e'],
    'shared/ is the bottom layer: it imports nothing of the app.',
  ),
];

/** Production BFF code reaches the stand-ins over HTTP only; its tests may start them. */
export const standInZones = sideways(
  'bff',
  ['upstream'],
  'bff/ reaches the stand-ins over HTTP only, never by import.',
);

export const sharedImportPatterns = [
  {
    regex: '^(?!zod($|/)|eventsource-parser($|/)|node:crypto$|\\.{1,2}/)',
    message: 'shared/ imports nothing but zod, eventsource-parser and node:crypto.',
  },
];
