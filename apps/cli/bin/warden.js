#!/usr/bin/env node
// Entry point of the `warden` command; the CLI itself is built to ../dist.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// The command hook runs once per tool call: its own entry point loads only what a hook call needs.
if (process.argv.length === 3 && process.argv[2] === 'hook') {
  createRequire(import.meta.url)('./warden-hook.cjs');
} else {
  const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
  if (!existsSync(main)) {
    console.error('warden is not built yet: run `npx nx run-many -t build` (or `npm run demo`, which builds first).');
    process.exit(1);
  }
  await import(main);
}
