// Lint: typescript-eslint's recommended rules, and Nx module boundaries on two axes.
//   scope:*  which part of the product a project belongs to (shared, agent, cli, suite, one per service)
//   type:*   what kind of project it is (app, contracts, domain, util, runtime, sdk, tracing, testing, e2e)
// Apps never import apps, libraries never import apps, and only tests may use the test harness.
// A domain library is plain TypeScript: it depends on contracts and other domain libraries only, and
// imports no Nest, NATS, database, metrics or logging; the command line may use the services' domains
// (`warden check` and `warden eval` judge in process).
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const SERVICES = ['reviewer', 'pattern-detector', 'intervention-controller', 'breaker', 'gate', 'ladder', 'audit', 'console'];

const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:agent', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent'] },
  { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent', ...SERVICES.map((service) => `scope:${service}`)] },
  { sourceTag: 'scope:suite', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent'] },
  // The agent gateway speaks for agents: the agent side (SDK, hook adapters) and the shared libraries.
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent'] },
  ...SERVICES.map((service) => ({ sourceTag: `scope:${service}`, onlyDependOnLibsWithTags: ['scope:shared', `scope:${service}`] })),
];

const typeConstraints = (testCode) => [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
  // Traces of messages (OpenTelemetry), shared by the services' transport and the agent's SDK: it depends on no Warden library.
  { sourceTag: 'type:tracing', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:domain'] },
  { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:runtime', 'type:tracing', ...(testCode ? ['type:testing'] : [])] },
  // The SDK's own tests play the services' side with the runtime; the SDK itself stays free of it.
  { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:contracts', 'type:sdk', 'type:tracing', ...(testCode ? ['type:testing', 'type:runtime', 'type:util'] : [])] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:runtime', 'type:sdk', 'type:tracing'] },
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:runtime', 'type:sdk', 'type:tracing', ...(testCode ? ['type:testing'] : [])],
  },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:util', 'type:runtime', 'type:sdk', 'type:tracing', 'type:testing'] },
];

const boundaries = (testCode) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allow: [],
    // messaging's and operator-auth's own integration tests run on the harness, which is built on them.
    ignoredCircularDependencies: testCode ? [['messaging', 'testing'], ['operator-auth', 'testing']] : [],
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
    },
  },
  {
    files: ['libs/{secrets,pricing,signatures,review,breakers,patterns,interventions}/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', '@nats-io/*', 'pg', 'typeorm', 'prom-client', 'pino', 'express'], message: 'A domain library is plain TypeScript: wire it to the bus, database, metrics or logs in its service.' },
            { group: ['@warden/messaging', '@warden/observability', '@warden/local-runtime', '@warden/testing'], message: 'A domain library depends on contracts and other domain libraries only.' },
          ],
        },
      ],
    },
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
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': boundaries(true),
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'off',
    },
  },
);
