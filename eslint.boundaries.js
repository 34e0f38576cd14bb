/**
 * The one-way flow of the architecture: shared <- bff, web, upstream; nothing crosses sideways.
 * Expressed with ESLint's own no-restricted-imports, one config block per top-level folder, and kept
 * apart from eslint.config.js so that a test can prove each boundary fails the lint.
 */

/** A relative import that climbs out of its folder and lands in `target/`. */
const into = (target, message) => ({ regex: `^(\\.\\./)+${target}(/|$)`, message });

const fromWeb = [
  into('bff', 'web/ talks to the BFF over HTTP only; shared contracts live in shared/.'),
  into('upstream', 'web/ never imports the stand-ins; it reaches them through the BFF.'),
  into('e2e', 'Nothing imports the end-to-end tests.'),
];
const fromBff = [
  into('web', 'bff/ must not import the SPA; shared contracts live in shared/.'),
  into('e2e', 'Nothing imports the end-to-end tests.'),
];
const fromBffProduction = [
  ...fromBff,
  into('upstream', 'bff/ reaches the stand-ins over HTTP only; only its tests may start them.'),
];
const fromUpstream = [
  into('bff', 'The stand-ins are external systems: they import only shared/.'),
  into('web', 'The stand-ins are external systems: they import only shared/.'),
  into('e2e', 'Nothing imports the end-to-end tests.'),
];
const fromSharedTests = ['bff', 'web', 'upstream', 'e2e'].map((target) =>
  into(target, 'shared/ is the bottom layer: it imports nothing of the app.'),
);
const fromShared = [
  {
    regex: '^(?!zod($|/)|eventsource-parser($|/)|node:crypto$|\\.{1,2}/)',
    message: 'shared/ imports nothing but zod, eventsource-parser and node:crypto.',
  },
  ...fromSharedTests,
];

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/** Config blocks for eslint.config.js, in order: later blocks override earlier ones for their files. */
export const boundaryConfigs = [
  { files: ['web/**/*.{ts,tsx}'], rules: restrict(fromWeb) },
  { files: ['bff/**/*.ts'], rules: restrict(fromBffProduction) },
  { files: ['bff/**/*.test.ts', 'bff/test-support/**/*.ts'], rules: restrict(fromBff) },
  { files: ['upstream/**/*.ts'], rules: restrict(fromUpstream) },
  { files: ['shared/**/*.ts'], rules: restrict(fromShared) },
  { files: ['shared/**/*.test.ts'], rules: restrict(fromSharedTests) },
];
