// The built gate as its main runs it, except that the process kills itself (SIGKILL, no cleanup) once a
// flush has published KILL_AFTER_FLUSHED messages: test/suite/scenarios/gate-crash.spec.ts runs it to
// prove that a restarted gate finishes an interrupted flush with nothing lost or stored twice. The fault
// lives here only: the relay's module is overridden with a HitlRelay built with an afterFlushed hook.
import 'reflect-metadata';
import { writeSync } from 'node:fs';
import { runService } from '@warden/service-bootstrap';
import { GateAppModule } from '../../dist/app.module.js';
import { loadGateConfig } from '../../dist/config.js';
import { HitlRelay } from '../../dist/relay/hitl-relay.js';
import { RELAY_OPTIONS, RelayModule } from '../../dist/relay/relay.module.js';

const killAfter = Number(process.env.KILL_AFTER_FLUSHED);
if (!Number.isInteger(killAfter) || killAfter < 1) throw new Error(`KILL_AFTER_FLUSHED must be a whole number above 0, not ${process.env.KILL_AFTER_FLUSHED}`);

function killAt(published) {
  if (published !== killAfter) return;
  // Written synchronously: the logger's asynchronous write would die with the process.
  writeSync(2, `${JSON.stringify({ level: 'fatal', service: 'gate', published, msg: 'KILL_AFTER_FLUSHED reached: killing the gate mid-flush' })}\n`);
  process.kill(process.pid, 'SIGKILL');
}

// A dynamic module extends the providers of the module it names, and a provider given again replaces the
// first: RelayModule as the gate wires it, but for its HitlRelay.
const relayKilledMidFlush = {
  module: RelayModule,
  providers: [{ provide: HitlRelay, useFactory: (options) => new HitlRelay({ ...options, afterFlushed: killAt }), inject: [RELAY_OPTIONS] }],
};

runService({
  service: 'gate',
  loadConfig: loadGateConfig,
  createModule: (config, logger) => {
    const gate = GateAppModule.forRoot(config, logger);
    return { ...gate, imports: gate.imports.map((imported) => (imported === RelayModule ? relayKilledMidFlush : imported)) };
  },
});
