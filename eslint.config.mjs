// Lint: typescript-eslint's recommended rules, and Nx module boundaries on two axes.
//   scope:*  which part of the product a project belongs to (shared, agent, cli, suite, bench, one per service)
//   type:*   what kind of project it is:
//     app        a service or the command line
//     contracts  the message schemas: plain TypeScript, depends on nothing
//     domain     plain TypeScript decisions: no Nest, NATS, database, metrics, logging or file system
//     util       plain Node helpers of services (metrics registry, logger, settings files): no Nest, NATS or database
//     bus        the services' bus over NATS JetStream (connection, topology, consumers, partitions, session state,
//                publishing): no Nest or database, so that it runs in any process
//     runtime    Nest, NATS and database wiring (the bus's Nest transport, service bootstrap, Nest observability, auth, local servers)
//     tracing    traces of messages (OpenTelemetry), shared by the services' transport and the agent's SDK
//     sdk        what agents embed; testing  the test harness; e2e  the system suite
// Apps never import apps, libraries never import apps, and only tests may use the test harness. The one
// exception is the benchmark (test/bench): it runs what a service does in process, through the entry each
// such service exports for it alone (BENCHMARK_ENTRIES).
// A domain library is plain TypeScript: it depends on contracts and other domain libraries only, and
// imports no Nest, NATS, database, metrics, logging or file system; the command line may use the services'
// domains (`warden check` and `warden eval` judge in process). The same holds for the `src/domain` folder
// of every app and library, file by file (see DOMAIN_CODE).
import { readdirSync, readFileSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const SERVICES = ['reviewer', 'pattern-detector', 'intervention-controller', 'breaker', 'gate', 'ladder', 'audit', 'console'];

/** Libraries whose tags say they are plain TypeScript: contracts and domains. */
const PURE_LIBRARIES = readdirSync(new URL('./libs', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => {
    try {
      const { tags = [] } = JSON.parse(readFileSync(new URL(`./libs/${name}/project.json`, import.meta.url), 'utf8'));
      return tags.includes('type:domain') || tags.includes('type:contracts');
    } catch {
      return false;
    }
  });

/** Domain code: the pure libraries, and any `src/domain` folder. Its tests may use the file system. */
const DOMAIN_CODE = [`libs/{${PURE_LIBRARIES.join(',')}}/src/**/*.ts`, 'apps/*/src/domain/**/*.ts', 'libs/*/src/domain/**/*.ts'];

/** What domain code never imports: the frameworks and the outside world, and the Warden libraries that wrap them. */
const IMPURE = {
  nest: ['@nestjs/*', 'nestjs-*', 'express', 'reflect-metadata', 'rxjs'],
  nats: ['nats', '@nats-io/*'],
  database: ['pg', 'pg-*', 'typeorm', '@electric-sql/*'],
  metrics: ['prom-client'],
  logging: ['pino', 'pino-*', 'nestjs-pino'],
  files: ['fs', 'fs/*', 'node:fs', 'node:fs/*'],
};
const IMPURE_WARDEN_LIBRARIES = ['@warden/messaging', '@warden/messaging-nest', '@warden/service-bootstrap', '@warden/observability', '@warden/observability-nest', '@warden/local-runtime', '@warden/operator-auth', '@warden/settings-loader', '@warden/testing'];

const domainPurity = [
  'error',
  {
    patterns: [
      {
        group: Object.values(IMPURE).flat(),
        message: 'Domain code is plain TypeScript: no Nest, NATS, database, metrics, logging or file system. Wire it to them in its service.',
      },
      {
        group: IMPURE_WARDEN_LIBRARIES,
        message: 'Domain code depends on contracts and other domain code only: this library brings Nest, NATS, metrics, logging or the file system with it.',
      },
    ],
  },
];

const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:agent', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent'] },
  { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent', ...SERVICES.map((service) => `scope:${service}`)] },
  { sourceTag: 'scope:suite', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent'] },
  // The benchmark measures the services' domains in process, as the command line judges with them.
  { sourceTag: 'scope:bench', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent', ...SERVICES.map((service) => `scope:${service}`)] },
  // The agent gateway speaks for agents: the agent side (SDK, hook adapters) and the shared libraries.
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent'] },
  ...SERVICES.map((service) => ({ sourceTag: `scope:${service}`, onlyDependOnLibsWithTags: ['scope:shared', `scope:${service}`] })),
];

/** npm packages a pure project (contracts, domain) may not depend on; the file system is kept out by domainPurity. */
const IMPURE_PACKAGES = [IMPURE.nest, IMPURE.nats, IMPURE.database, IMPURE.metrics, IMPURE.logging].flat();

const typeConstraints = (testCode) => [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [], bannedExternalImports: IMPURE_PACKAGES },
  // Traces of messages (OpenTelemetry), shared by the services' transport and the agent's SDK: it depends on no Warden library.
  { sourceTag: 'type:tracing', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'], bannedExternalImports: IMPURE_PACKAGES },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:domain'], bannedExternalImports: [IMPURE.nest, IMPURE.nats, IMPURE.database].flat() },
  // The bus without Nest: NATS yes, Nest and the database no; its Nest transport is a runtime library built on it.
  {
    sourceTag: 'type:bus',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:tracing', 'type:bus', ...(testCode ? ['type:testing'] : [])],
    bannedExternalImports: [IMPURE.nest, IMPURE.database].flat(),
  },
  { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:bus', 'type:runtime', 'type:tracing', ...(testCode ? ['type:testing'] : [])] },
  // The SDK's own tests play the services' side with the bus and the runtime; the SDK itself stays free of
  // them, and uses the shared domain (the one redaction of secrets) as the services do.
  { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:sdk', 'type:tracing', ...(testCode ? ['type:testing', 'type:bus', 'type:runtime', 'type:util'] : [])] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:bus', 'type:runtime', 'type:sdk', 'type:tracing'] },
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:bus', 'type:runtime', 'type:sdk', 'type:tracing', ...(testCode ? ['type:testing'] : [])],
  },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:bus', 'type:runtime', 'type:sdk', 'type:tracing', 'type:testing'] },
];

/**
 * What a service exports for the benchmark's in-process measurements (its package.json "exports"): the
 * Nest-free pieces its benchmark runs as the service does. Only test/bench may import them.
 */
const BENCHMARK_ENTRIES = ['@warden/audit/in-process', '@warden/gate-service/in-process', '@warden/gateway/in-process', '@warden/pattern-detector/in-process'];

const boundaries = (testCode, allow = []) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allow,
    // The bus's, its Nest transport's and operator-auth's own integration tests run on the harness, which is built on them.
    ignoredCircularDependencies: testCode ? [['messaging', 'testing'], ['messaging-nest', 'testing'], ['operator-auth', 'testing']] : [],
    depConstraints: [...scopeConstraints, ...typeConstraints(testCode)],
  },
];

const TEST_FILES = ['**/*.spec.ts', '**/test/**/*.ts', 'test/**/*.ts'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '.nx/**', '**/*.mjs', '**/*.js', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    // Constructor parameter types feed Nest's dependency injection through decorator metadata: they are
    // runtime imports, and the type-import rule must know it.
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': 'error',
      // A library's barrel names what it offers: `export *` hides what crosses the boundary, and lets a
      // framework re-export slip in unseen.
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'Export by name (export { A, type B } from ...), not export *.' }],
    },
  },
  {
    files: DOMAIN_CODE,
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': domainPurity },
  },
  {
    // Off costs nothing: the OpenTelemetry SDK and exporters are imported by otel-message-tracer.ts alone,
    // which createMessageTracer loads only when tracing is on. Nest, NATS and Warden's libraries stay out.
    files: ['libs/tracing/src/**/*.ts'],
    ignores: ['libs/tracing/src/otel-message-tracer.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@opentelemetry/*'], allowTypeImports: true, message: 'Only otel-message-tracer.ts loads OpenTelemetry, and only when tracing is on: import types only.' },
            { group: ['@nestjs/*', '@nats-io/*', '@warden/*'], message: 'The tracing library is plain TypeScript over OpenTelemetry: the services and the SDK call it.' },
          ],
        },
      ],
    },
  },
  {
    // The gate's core (options, stores, metrics, the command dispatcher) is what its features share: the
    // relay, the operator API and the human gates use it, and it uses none of them.
    files: ['apps/gate/src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../relay/*', '../hitl/*', '../human-gates/*'], message: "The gate's core is shared by its features and imports none of them: move what both need into core/ or @warden/gate." }] },
      ],
    },
  },
  {
    // What a review derives from a parsed action or a segment is kept on it (DerivedValue): V8's young
    // collections keep a WeakMap's values alive, and a long command's review then promoted megabytes.
    files: ['libs/review/src/parsing/**/*.ts', 'libs/review/src/rules/**/*.ts', 'libs/review/src/analysis/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Export by name (export { A, type B } from ...), not export *.' },
        { selector: "NewExpression[callee.name='WeakMap']", message: 'Keep what is derived from a review\'s objects on them with DerivedValue (libs/review/src/derived-value.ts), not in a WeakMap.' },
      ],
    },
  },
  {
    // The tracing library's barrel still exports with `export *`; it is named when the tracing work settles.
    files: ['libs/tracing/src/index.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': boundaries(true),
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['test/bench/src/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(true, BENCHMARK_ENTRIES) },
  },
);
