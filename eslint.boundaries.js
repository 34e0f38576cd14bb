/**
 * The one-way flow of the architecture: shared <- bff, web, upstream; nothing crosses sideways; scripts/ and
 * bench/ do not import the end-to-end tests; inside the SPA, features meet only at their
 * public faces (featuresRule).
 * One config block per top-level folder, kept apart from eslint.config.js so that a test
 * (scripts/lint-boundaries.test.ts) can prove each boundary fails the lint.
 *
 * A relative specifier is resolved against the importing file before its top-level folder is compared,
 * so `../upstream/x.ts` inside shared/api/ (shared/upstream) passes while the same text in bff/routes/
 * would be judged by where it lands, and detours such as `../shared/../bff/x.ts` are seen through.
 * Static imports, re-exports, `import()` and `import('…')` types are all checked.
 */
import path from 'node:path';

const root = import.meta.dirname;

const isRelative = (specifier) => /^\.\.?(\/|$)/.test(specifier) || path.isAbsolute(specifier);

/** The package's own subpath imports (package.json "imports"): `#shared/x` is `shared/x` from the root. */
const SUBPATH_IMPORTS = { '#shared/': 'shared/' };
const subpathTarget = (specifier) => {
  const prefix = Object.keys(SUBPATH_IMPORTS).find((candidate) => specifier.startsWith(candidate));
  return prefix && SUBPATH_IMPORTS[prefix] + specifier.slice(prefix.length);
};

/** Where in the repository (a path from its root, `/`-separated) a specifier written in `filename` lands. */
const landsAt = (filename, specifier) => {
  const target = subpathTarget(specifier);
  const absolute = target ? path.resolve(root, target) : path.resolve(path.dirname(filename), specifier);
  return path.relative(root, absolute).split(path.sep).join('/');
};

/** A zone is a top-level folder (`bff`) or a folder inside one (`shared/upstream`). */
const isInside = (location, zone) => location === zone || location.startsWith(`${zone}/`);

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep imports flowing one way between the top-level folders of the repository.' },
    schema: [
      {
        type: 'object',
        properties: {
          forbid: {
            type: 'array',
            items: {
              type: 'object',
              properties: { folder: { type: 'string' }, message: { type: 'string' } },
              required: ['folder', 'message'],
              additionalProperties: false,
            },
          },
          packages: {
            type: 'object',
            properties: { allow: { type: 'string' }, message: { type: 'string' } },
            required: ['allow', 'message'],
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { forbid = [], packages } = context.options[0] ?? {};
    const allowedPackage = packages && new RegExp(packages.allow);
    const check = (literal) => {
      if (literal?.type !== 'Literal' || typeof literal.value !== 'string') return;
      const specifier = literal.value;
      if (!isRelative(specifier) && !subpathTarget(specifier)) {
        if (allowedPackage && !allowedPackage.test(specifier)) {
          context.report({ node: literal, message: packages.message });
        }
        return;
      }
      const location = landsAt(context.filename, specifier);
      const rule = forbid.find((candidate) => isInside(location, candidate.folder));
      if (rule) context.report({ node: literal, message: rule.message });
    };
    return visitImports(check);
  },
};

/** Calls `check` with the specifier literal of every static import, re-export, `import()` and import type. */
function visitImports(check) {
  const checkSource = (node) => check(node.source);
  return {
    ImportDeclaration: checkSource,
    ExportAllDeclaration: checkSource,
    ExportNamedDeclaration: checkSource,
    ImportExpression: checkSource,
    TSImportType: (node) => check(node.source ?? node.argument?.literal),
    TSExternalModuleReference: (node) => check(node.expression),
  };
}

/**
 * The SPA's feature zones. Each folder of web/src/features/ is a zone; another feature reaches it only
 * through its public face: its index.ts, or a query factory (`*-queries.ts`) at its root. What two
 * features share lives in web/src/lib/ or web/src/components/, which sit below every feature and import
 * none (as web/src/i18n/ does). Only the app shell (web/src/app/, main.tsx) composes the features freely.
 */
const FEATURES = 'web/src/features';
const BELOW_FEATURES = ['web/src/lib', 'web/src/components', 'web/src/i18n'];
const featureOf = (location) =>
  location.startsWith(`${FEATURES}/`) ? location.slice(FEATURES.length + 1).split('/')[0] : undefined;
const isPublicFace = (location, feature) => {
  const rest = location.slice(`${FEATURES}/${feature}/`.length);
  return rest === 'index.ts' || (!rest.includes('/') && rest.endsWith('-queries.ts'));
};

const featuresRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Reach another feature of the SPA only through its index.ts or its *-queries.ts.' },
    schema: [],
  },
  create(context) {
    const importer = path.relative(root, context.filename).split(path.sep).join('/');
    const own = featureOf(importer);
    const below = BELOW_FEATURES.some((zone) => isInside(importer, zone));
    if (!own && !below) return {};
    const check = (literal) => {
      if (literal?.type !== 'Literal' || typeof literal.value !== 'string' || !isRelative(literal.value))
        return;
      const location = landsAt(context.filename, literal.value);
      const feature = featureOf(location);
      if (!feature || feature === own) return;
      if (below) {
        context.report({
          node: literal,
          message: `${importer.split('/').slice(0, 3).join('/')}/ sits below the features and imports none of them.`,
        });
      } else if (!isPublicFace(location, feature)) {
        context.report({
          node: literal,
          message:
            `Import features/${feature}/ through its index.ts (or its *-queries.ts), not ${location.slice(FEATURES.length + 1)}; ` +
            'what two features share belongs in web/src/lib/ or web/src/components/.',
        });
      }
    };
    return visitImports(check);
  },
};

const boundariesPlugin = {
  meta: { name: 'wayfare-boundaries' },
  rules: { imports: importsRule, features: featuresRule },
};

const into = (folder, message) => ({ folder, message });

const fromWeb = [
  into('bff', 'web/ talks to the BFF over HTTP only; shared contracts live in shared/.'),
  into(
    'shared/upstream',
    'web/ speaks the BFF contract: import it from #shared/api, which re-exports what passes through unchanged.',
  ),
  into('upstream', 'web/ never imports the stand-ins; it reaches them through the BFF.'),
  into('shared/observability', "The servers' telemetry (OpenTelemetry for Node) is no part of the SPA."),
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
const fromShared = ['bff', 'web', 'upstream', 'e2e'].map((folder) =>
  into(folder, 'shared/ is the bottom layer: it imports nothing of the app.'),
);
const sharedPackages = {
  allow: '^(zod|eventsource-parser)(/|$)|^node:crypto$',
  message: 'shared/ imports nothing but zod, eventsource-parser and node:crypto.',
};

const observabilityPackages = {
  allow: '^(@opentelemetry/[a-z-]+|@fastify/otel|fastify|fastify-plugin|node:[a-z_]+)$',
  message: 'shared/observability/ imports only OpenTelemetry, Fastify and node: modules.',
};

const fromTools = [
  into('e2e', 'Nothing imports the end-to-end tests; scripts/ and bench/ keep their own browser helpers.'),
];

const restrict = (options) => ({
  plugins: { boundaries: boundariesPlugin },
  rules: { 'boundaries/imports': ['error', options] },
});

/** Config blocks for eslint.config.js, in order: later blocks override earlier ones for their files. */
export const boundaryConfigs = [
  { files: ['web/**/*.{ts,tsx}'], ...restrict({ forbid: fromWeb }) },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { boundaries: boundariesPlugin },
    rules: { 'boundaries/features': 'error' },
  },
  { files: ['bff/**/*.ts'], ...restrict({ forbid: fromBffProduction }) },
  { files: ['bff/**/*.test.ts', 'bff/**/test-support/**/*.ts'], ...restrict({ forbid: fromBff }) },
  { files: ['upstream/**/*.ts'], ...restrict({ forbid: fromUpstream }) },
  { files: ['shared/**/*.ts'], ...restrict({ forbid: fromShared, packages: sharedPackages }) },
  { files: ['shared/**/*.test.ts'], ...restrict({ forbid: fromShared }) },
  // The servers' telemetry, shared by the BFF and the stand-ins: OpenTelemetry's Node SDK and Fastify.
  {
    files: ['shared/observability/**/*.ts'],
    ...restrict({ forbid: fromShared, packages: observabilityPackages }),
  },
  { files: ['shared/observability/**/*.test.ts'], ...restrict({ forbid: fromShared }) },
  { files: ['scripts/**/*.{ts,mjs,js}', 'bench/**/*.ts'], ...restrict({ forbid: fromTools }) },
];
