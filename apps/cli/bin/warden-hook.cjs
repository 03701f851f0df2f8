#!/usr/bin/env node
// `warden hook`, the Claude Code command hook, as its own entry point: CommonJS (no ES module loader to
// start) running one bundled file (../dist/hook.bundle.cjs, only what a hook call needs) compiled with
// V8's code cache, kept beside the bundle after the first run. A call pays for starting Node and
// little else. `warden hook` (bin/warden.js) runs the same.
'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

const bundle = join(__dirname, '..', 'dist', 'hook.bundle.cjs');
if (!existsSync(bundle)) {
  process.stderr.write('Warden could not decide on this tool call, so it is blocked (fail closed): warden is not built yet (npx nx run-many -t build)\n');
  process.exit(2);
}
const cachePath = `${bundle}.v8cache`;
const cachedData = existsSync(cachePath) ? readFileSync(cachePath) : undefined;
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`, { filename: bundle, cachedData });
const module_ = { exports: {} };
script.runInThisContext()(module_.exports, require, module_, bundle, join(__dirname, '..', 'dist'));
if (!cachedData || script.cachedDataRejected) {
  // Written when the call is over, so that the cache holds every function the call compiled.
  process.once('exit', () => {
    try {
      writeFileSync(cachePath, script.createCachedData());
    } catch {
      // A read-only installation runs without the cache.
    }
  });
}
