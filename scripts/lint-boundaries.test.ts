import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Lints in-memory files with the project's real eslint.config.js, so a boundary that this suite proves
 * is one that `npm run lint` enforces. Type information is switched off for the probes only: they exist
 * nowhere on disk, and no boundary rule needs types.
 */
const root = path.resolve(import.meta.dirname, '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: { files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked },
  });
});

type ImportForm = 'static import' | 'type-only import' | 're-export' | 'side-effect import' | 'import()';
const IMPORT_FORMS: readonly ImportForm[] = [
  'static import',
  'type-only import',
  're-export',
  'side-effect import',
  'import()',
];

function probeSource(specifier: string, form: ImportForm): string {
  switch (form) {
    case 'static import':
      return `import { thing } from '${specifier}';\n\nexport const probe = thing;\n`;
    case 'type-only import':
      return `import type { Thing } from '${specifier}';\n\nexport type Probe = Thing;\n`;
    case 're-export':
      return `export * from '${specifier}';\n`;
    case 'side-effect import':
      return `import '${specifier}';\n`;
    case 'import()':
      return `export const probe = async (): Promise<unknown> => import('${specifier}');\n`;
  }
}

async function lintProbe(filePath: string, specifier: string, form: ImportForm): Promise<ESLint.LintResult> {
  const [result] = await eslint.lintText(probeSource(specifier, form), {
    filePath: path.join(root, filePath),
  });
  if (!result) throw new Error(`ESLint returned no result for ${filePath}`);
  return result;
}

const BOUNDARY_RULE = 'boundaries/imports';
const FEATURES_RULE = 'boundaries/features';

/** The boundary errors a developer sees for the probe: what makes `npm run lint` exit non-zero. */
function boundaryErrors(result: ESLint.LintResult): string[] {
  return result.messages
    .filter(
      (message) =>
        (message.ruleId === BOUNDARY_RULE || message.ruleId === FEATURES_RULE) && message.severity === 2,
    )
    .map((message) => message.message);
}

/** Forbidden: [importing file, import specifier, a phrase of the message the author sees]. */
const forbidden: readonly [string, string, string][] = [
  ['web/src/features/probe.ts', '../../../bff/config.ts', 'web/ talks to the BFF over HTTP only'],
  ['web/src/app/probe.tsx', '../../../bff/errors.ts', 'web/ talks to the BFF over HTTP only'],
  ['web/src/probe.ts', '../../upstream/travel-api/travel-api-config.ts', 'web/ never imports the stand-ins'],
  ['web/src/probe.ts', '../../e2e/fixtures.ts', 'Nothing imports the end-to-end tests'],
  ['bff/routes/probe.ts', '../../web/src/main.tsx', 'bff/ must not import the SPA'],
  [
    'bff/routes/probe.ts',
    '../../upstream/travel-api/travel-api-config.ts',
    'bff/ reaches the stand-ins over HTTP only',
  ],
  ['bff/probe.ts', '../e2e/fixtures.ts', 'Nothing imports the end-to-end tests'],
  ['bff/routes/probe.test.ts', '../../web/src/main.tsx', 'bff/ must not import the SPA'],
  ['bff/test-support/probe.ts', '../../e2e/fixtures.ts', 'Nothing imports the end-to-end tests'],
  ['upstream/travel-api/probe.ts', '../../bff/config.ts', 'The stand-ins are external systems'],
  ['upstream/identity/probe.ts', '../../web/src/main.tsx', 'The stand-ins are external systems'],
  ['upstream/travel-api/probe.ts', '../../e2e/fixtures.ts', 'Nothing imports the end-to-end tests'],
  ['shared/probe.ts', '../bff/errors.ts', 'shared/ is the bottom layer'],
  ['shared/upstream/probe.ts', '../../web/src/main.tsx', 'shared/ is the bottom layer'],
  ['shared/api/probe.ts', '../../upstream/travel-api/travel-api-config.ts', 'shared/ is the bottom layer'],
  ['shared/probe.ts', '../e2e/fixtures.ts', 'shared/ is the bottom layer'],
  ['web/src/lib/probe.ts', '#shared/upstream/error-envelope.ts', 'web/ speaks the BFF contract'],
  ['web/src/lib/probe.ts', '../../../shared/upstream/error-envelope.ts', 'web/ speaks the BFF contract'],
  ['shared/probe.ts', '#shared/../bff/errors.ts', 'shared/ is the bottom layer'],
  ['shared/upstream/probe.test.ts', '../../bff/errors.ts', 'shared/ is the bottom layer'],
  ['shared/probe.ts', 'fastify', 'shared/ imports nothing but zod, eventsource-parser and node:crypto'],
  [
    'shared/upstream/probe.ts',
    'node:fs',
    'shared/ imports nothing but zod, eventsource-parser and node:crypto',
  ],
  ['shared/api/probe.ts', 'react', 'shared/ imports nothing but zod, eventsource-parser and node:crypto'],
  ['shared/probe.ts', 'jose', 'shared/ imports nothing but zod, eventsource-parser and node:crypto'],
  ['web/src/features/stays/probe.tsx', '../checkout/rate-details.tsx', 'through its index.ts'],
  ['web/src/features/flights/probe.ts', '../profile/profile-page.tsx', 'through its index.ts'],
  [
    'web/src/features/stays/results/probe.tsx',
    '../../checkout/checkout-selection.ts',
    'through its index.ts',
  ],
  ['web/src/features/trips/probe.ts', '../stays/results/stay-queries.ts', 'through its index.ts'],
  ['web/src/features/trips/probe.test.tsx', '../notifications/live-indicator.tsx', 'through its index.ts'],
  ['web/src/lib/probe.ts', '../features/profile/profile-queries.ts', 'sits below the features'],
  ['web/src/components/probe.tsx', '../features/trips/index.ts', 'sits below the features'],
  ['web/src/i18n/probe.ts', '../features/auth/index.ts', 'sits below the features'],
  ['scripts/probe.ts', '../e2e/support/dates.ts', 'Nothing imports the end-to-end tests'],
  ['scripts/probe.mjs', '../e2e/support/browser.ts', 'Nothing imports the end-to-end tests'],
  ['bench/probe.ts', '../e2e/support/browser.ts', 'Nothing imports the end-to-end tests'],
  ['bench/support/probe.ts', '../../e2e/fixtures.ts', 'Nothing imports the end-to-end tests'],
];

/** Allowed: [importing file, import specifier]. */
const allowed: readonly [string, string][] = [
  ['web/src/lib/probe.ts', '#shared/api/error-envelope.ts'],
  ['web/src/features/probe.tsx', '#shared/sse.ts'],
  ['web/src/features/probe.tsx', '../../../shared/sse.ts'],
  ['bff/probe.ts', '#shared/upstream/sign-request.ts'],
  ['upstream/travel-api/probe.ts', '#shared/upstream/error-envelope.ts'],
  ['web/src/lib/probe.ts', './api-client.ts'],
  ['web/src/lib/probe.ts', 'react'],
  ['bff/probe.ts', '../shared/upstream/sign-request.ts'],
  ['bff/routes/probe.ts', '../../shared/api/session.ts'],
  ['bff/probe.ts', './config.ts'],
  ['bff/routes/probe.ts', '../upstream/travel-api-client.ts'],
  ['web/src/features/stays/probe.tsx', '../../lib/api-client.ts'],
  ['bff/probe.ts', 'fastify'],
  ['bff/streams/probe.test.ts', '../../upstream/travel-api/travel-api-config.ts'],
  ['bff/test-support/probe.ts', '../../upstream/identity/run-identity.ts'],
  ['upstream/travel-api/probe.ts', '../../shared/upstream/error-envelope.ts'],
  ['upstream/travel-api/probe.ts', 'fastify'],
  ['shared/probe.ts', './upstream/error-envelope.ts'],
  ['shared/upstream/probe.ts', '../sse.ts'],
  ['shared/api/probe.ts', '../upstream/notifications.ts'],
  ['shared/probe.ts', 'zod'],
  ['shared/probe.ts', 'zod/mini'],
  ['shared/probe.ts', 'eventsource-parser/stream'],
  ['shared/probe.ts', 'node:crypto'],
  ['shared/probe.test.ts', 'vitest'],
  ['shared/upstream/probe.test.ts', 'fast-check'],
  ['web/src/features/stays/probe.tsx', '../checkout/index.ts'],
  ['web/src/features/checkout/probe.ts', '../trips/trip-queries.ts'],
  ['web/src/features/stays/results/probe.tsx', '../../checkout/index.ts'],
  ['web/src/features/stays/results/probe.tsx', '../search/stay-search-form.tsx'],
  ['web/src/features/stays/probe.tsx', '../../lib/use-traveler-formatters.ts'],
  ['web/src/features/trips/probe.tsx', '../../components/booking-status-chip.tsx'],
  ['web/src/app/probe.tsx', '../features/stays/results/stays-page.tsx'],
  ['web/src/lib/probe.ts', '../components/toast-region.tsx'],
  ['scripts/probe.ts', '../bff/redis/redis-client.ts'],
  ['scripts/probe.ts', './chromium-launch-options.ts'],
  ['bench/probe.ts', '../bff/test-support/start-test-bff.ts'],
  ['bench/probe.ts', '../upstream/travel-api/local-certificates.ts'],
  ['bench/probe.ts', '../web/src/features/stays/search/stay-search-params.ts'],
];

describe('npm run lint rejects an import that crosses a boundary', () => {
  describe.each(forbidden)('%s importing %s', (filePath, specifier, phrase) => {
    it.each(IMPORT_FORMS)('as a %s', async (form) => {
      const errors = boundaryErrors(await lintProbe(filePath, specifier, form));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(phrase);
    });
  });

  it.each([
    ['a ./.. detour', 'web/src/probe.ts', './../../bff/config.ts', 'web/ talks to the BFF'],
    ['a detour through shared/', 'web/src/app/probe.tsx', '../../../shared/../bff/config.ts', 'web/ talks'],
    [
      'a detour from a stand-in',
      'upstream/travel-api/probe.ts',
      '../../shared/./../bff/config.ts',
      'stand-ins',
    ],
    ['a detour from shared/', 'shared/upstream/probe.ts', './../../bff/errors.ts', 'bottom layer'],
    ['a climb back into web/', 'bff/probe.ts', '../bff/../web/src/main.tsx', 'bff/ must not import the SPA'],
  ])('also through %s', async (_label, filePath, specifier, phrase) => {
    for (const form of ['static import', 'import()'] as const) {
      const errors = boundaryErrors(await lintProbe(filePath, specifier, form));
      expect(errors, form).toHaveLength(1);
      expect(errors[0]).toContain(phrase);
    }
  });
});

describe('npm run lint accepts imports along the one-way flow', () => {
  describe.each(allowed)('%s importing %s', (filePath, specifier) => {
    it.each(IMPORT_FORMS)('as a %s', async (form) => {
      const result = await lintProbe(filePath, specifier, form);
      expect(result.messages).toEqual([]);
    });
  });
});

describe('the probes are linted, not ignored', () => {
  it('computes a config with the boundary rules for every probed path', async () => {
    const paths = new Set([...forbidden, ...allowed].map(([filePath]) => filePath));
    for (const filePath of paths) {
      expect(await eslint.isPathIgnored(path.join(root, filePath)), filePath).toBe(false);
      const config = (await eslint.calculateConfigForFile(path.join(root, filePath))) as {
        rules: Record<string, unknown>;
      };
      expect(config.rules[BOUNDARY_RULE], filePath).toBeDefined();
      if (filePath.startsWith('web/src/')) expect(config.rules[FEATURES_RULE], filePath).toBeDefined();
    }
  });
});

describe('npm run lint keeps the files of the SPA short', () => {
  const lines = (count: number) =>
    Array.from({ length: count }, (_, index) => `export const line${index} = ${index};`).join('\n') + '\n';
  const maxLinesErrors = async (filePath: string, source: string) => {
    const [result] = await eslint.lintText(source, { filePath: path.join(root, filePath) });
    return (result?.messages ?? []).filter((message) => message.ruleId === 'max-lines');
  };

  it('refuses a production file of web/src over 400 lines, and lets one of 400 or a test pass', async () => {
    expect(await maxLinesErrors('web/src/features/stays/probe.tsx', lines(401))).toHaveLength(1);
    expect(await maxLinesErrors('web/src/lib/probe.ts', lines(400))).toEqual([]);
    expect(await maxLinesErrors('web/src/lib/probe.test.ts', lines(401))).toEqual([]);
  });
});
