#!/usr/bin/env node
// Entry point of the `warden` command; the CLI itself is built to ../dist.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(main)) {
  console.error('warden is not built yet: run `npx nx run-many -t build` (or `npm run demo`, which builds first).');
  process.exit(1);
}
await import(main);
