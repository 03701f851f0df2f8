#!/usr/bin/env node
// Entry point of the `warden` command; the CLI itself is built to ../dist.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { fileURLToPath } from 'node:url';

/**
 * The command hook runs once per tool call: its bundle (one file, only what a hook call needs) is
 * compiled with V8's code cache, kept beside it after the first run, so a call pays for starting Node
 * and little else.
 */
function runHookBundle(bundle) {
  const cachePath = `${bundle}.v8cache`;
  const source = readFileSync(bundle, 'utf8');
  const cachedData = existsSync(cachePath) ? readFileSync(cachePath) : undefined;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, fileURLToPath(new URL('.', `file://${bundle}`)));
  if (!cachedData || script.cachedDataRejected) {
    try {
      writeFileSync(cachePath, script.createCachedData());
    } catch {
      // A read-only installation runs without the cache.
    }
  }
}

const hook = fileURLToPath(new URL('../dist/hook.bundle.cjs', import.meta.url));
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (process.argv.length === 3 && process.argv[2] === 'hook' && existsSync(hook)) {
  runHookBundle(hook);
} else {
  if (!existsSync(main)) {
    console.error('warden is not built yet: run `npx nx run-many -t build` (or `npm run demo`, which builds first).');
    process.exit(1);
  }
  await import(main);
}
