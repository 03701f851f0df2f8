// Shared Jest setup: ESM mode, TypeScript through @swc/jest with Nest's decorator metadata,
// and workspace libraries resolved to their sources so tests never need a prior build.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = dirname(fileURLToPath(import.meta.url));

export function jestConfig(configUrl, overrides = {}) {
  return {
    rootDir: dirname(fileURLToPath(configUrl)),
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    transform: {
      '^.+\\.ts$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', decorators: true },
            transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
            keepClassNames: true,
            target: 'es2022',
          },
          module: { type: 'es6' },
        },
      ],
    },
    moduleNameMapper: {
      // Every @warden package a test imports is a library under libs/<name>.
      '^@warden/([a-z-]+)$': join(workspaceRoot, 'libs/$1/src/index.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    testTimeout: 30_000,
    ...overrides,
  };
}
