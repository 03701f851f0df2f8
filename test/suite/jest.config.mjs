import { jestConfig } from '../../jest.preset.mjs';

// Whole-suite scenarios run built services as processes; they are slower than unit tests.
export default jestConfig(import.meta.url, { testMatch: ['<rootDir>/**/*.spec.ts'], testTimeout: 120_000 });
