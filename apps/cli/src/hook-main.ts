// The command hook's own entry point (`warden hook` with no other argument): bundled into one file
// (dist/hook.bundle.cjs, see project.json; bin/warden-hook.cjs runs it) that loads only what a hook
// call needs, so that each of Claude Code's calls pays for starting Node and little else.
import { runHook } from './hook/hook-runner.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

void (async () => {
  const result = await runHook(await readStdin());
  // Everything the call sent was acknowledged: once the answer is written the process ends, without
  // waiting for the connection to drain.
  process.stdout.write(result.stdout, () => process.stderr.write(result.stderr, () => process.exit(result.code)));
})();
