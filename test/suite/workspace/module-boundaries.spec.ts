import { join } from 'node:path';
import { ESLint } from 'eslint';
import { WORKSPACE_ROOT } from '@warden/local-runtime';

const eslint = new ESLint({ cwd: WORKSPACE_ROOT });

/** Lints `code` as if it were the file at `path`, and returns the complaints of one rule. */
async function ruleErrors(path: string, code: string, rule: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(WORKSPACE_ROOT, path) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const boundaryErrors = (path: string, code: string) => ruleErrors(path, code, '@nx/enforce-module-boundaries');
const purityErrors = (path: string, code: string) => ruleErrors(path, code, 'no-restricted-imports');

describe('module boundaries', () => {
  it('refuse a library that imports an app', async () => {
    const errors = await boundaryErrors(
      'libs/contracts/src/boundary-probe.ts',
      `import { ReviewerAppModule } from '../../../apps/reviewer/src/app.module.js';\nexport const probe = ReviewerAppModule;\n`,
    );
    expect(errors).toEqual([expect.stringContaining('Projects cannot be imported by a relative or absolute path')]);
  });

  it('refuse an app that imports another app', async () => {
    const errors = await boundaryErrors(
      'apps/gate/src/boundary-probe.ts',
      `import { ActionReviewer } from '../../reviewer/src/review/action-reviewer.js';\nexport const probe = ActionReviewer;\n`,
    );
    expect(errors).toEqual([expect.stringContaining('Projects cannot be imported by a relative or absolute path')]);
  });

  it('keep the test harness out of production code, and allow it in tests', async () => {
    const code = `import { TestNatsServer } from '@warden/testing';\nexport const probe = TestNatsServer;\n`;
    expect(await boundaryErrors('apps/gate/src/boundary-probe.ts', code)).toEqual([
      expect.stringContaining('A project tagged with "type:app" can only depend on libs tagged with'),
    ]);
    expect(await boundaryErrors('apps/gate/test/boundary-probe.spec.ts', code)).toEqual([]);
  });

  it('keep the agent SDK free of the services\' bus and runtime', async () => {
    for (const code of [
      `import { MessagePublisher } from '@warden/messaging';\nexport const probe = MessagePublisher;\n`,
      `import { JetStreamServer } from '@warden/messaging-nest';\nexport const probe = JetStreamServer;\n`,
    ]) {
      expect(await boundaryErrors('libs/sdk/src/boundary-probe.ts', code)).toEqual([expect.stringContaining('A project tagged with "type:sdk" can only depend on libs tagged with "type:contracts"')]);
    }
    // Its tests play the services' side on the bus.
    const bus = `import { BusConnection } from '@warden/messaging';\nexport const probe = BusConnection;\n`;
    expect(await boundaryErrors('libs/sdk/test/boundary-probe.spec.ts', bus)).toEqual([]);
  });

  it('keep the agent\'s SDK out of a service', async () => {
    const errors = await boundaryErrors(
      'apps/breaker/src/boundary-probe.ts',
      `import { ServiceProcess } from '@warden/local-runtime';\nimport { WardenClient } from '@warden/sdk';\nexport const probe = [ServiceProcess, WardenClient];\n`,
    );
    expect(errors).toEqual([
      expect.stringContaining('A project tagged with "scope:breaker" can only depend on libs tagged with "scope:shared"'),
    ]);
  });

  it('accept what the architecture allows', async () => {
    const code =
      `import { MessagePublisher } from '@warden/messaging';\nimport { OnMessage } from '@warden/messaging-nest';\nimport { runService } from '@warden/service-bootstrap';\n` +
      `import { ReviewVerdict } from '@warden/contracts';\nexport const probe = [MessagePublisher, OnMessage, runService, ReviewVerdict];\n`;
    expect(await boundaryErrors('apps/gate/src/boundary-probe.ts', code)).toEqual([]);
  });

  it('let the services\' transport and the agent SDK trace with the tracing library, which depends on no Warden library', async () => {
    const tracing = `import { createMessageTracer } from '@warden/tracing';\nexport const probe = createMessageTracer;\n`;
    expect(await boundaryErrors('libs/sdk/src/boundary-probe.ts', tracing)).toEqual([]);
    expect(await boundaryErrors('libs/messaging/src/boundary-probe.ts', tracing)).toEqual([]);
    expect(await boundaryErrors('libs/messaging-nest/src/boundary-probe.ts', tracing)).toEqual([]);
    const contracts = `import { SERVICES } from '@warden/contracts';\nexport const probe = SERVICES;\n`;
    expect(await boundaryErrors('libs/tracing/src/boundary-probe.ts', contracts)).toEqual([
      expect.stringContaining('A project tagged with "type:tracing" cannot depend on any libs with tags'),
    ]);
  });

  it('keep the OpenTelemetry SDK out of the tracing library but for the module loaded when tracing is on', async () => {
    const sdk = `import { TracerProvider } from '@opentelemetry/sdk-trace';\nexport const probe = TracerProvider;\n`;
    expect(await ruleErrors('libs/tracing/src/boundary-probe.ts', sdk, 'no-restricted-imports')).toEqual([expect.stringContaining('Only otel-message-tracer.ts loads OpenTelemetry')]);
    expect(await ruleErrors('libs/tracing/src/otel-message-tracer.ts', sdk, 'no-restricted-imports')).toEqual([]);
    const types = `import type { Span } from '@opentelemetry/api';\nexport type Probe = Span;\n`;
    expect(await ruleErrors('libs/tracing/src/boundary-probe.ts', types, 'no-restricted-imports')).toEqual([]);
  });

  it('keep a domain library plain: no Nest, NATS, database, metrics or logging, no runtime library', async () => {
    const nest = `import { Injectable } from '@nestjs/common';\nexport const probe = Injectable;\n`;
    expect(await purityErrors('libs/review/src/boundary-probe.ts', nest)).toEqual([expect.stringContaining('Domain code is plain TypeScript')]);
    const nats = `import { connect } from '@nats-io/transport-node';\nexport const probe = connect;\n`;
    expect(await purityErrors('libs/breakers/src/boundary-probe.ts', nats)).toEqual([expect.stringContaining('Domain code is plain TypeScript')]);
    // The project's tag says the same, whatever the file.
    const logging = `import { pino } from 'pino';\nexport const probe = pino;\n`;
    expect(await boundaryErrors('libs/review/src/boundary-probe.ts', logging)).toEqual([expect.stringContaining('A project tagged with "type:domain" is not allowed to import "pino"')]);
    expect(await boundaryErrors('libs/contracts/src/boundary-probe.ts', nest)).toEqual([expect.stringContaining('A project tagged with "type:contracts" is not allowed to import "@nestjs/common"')]);
    const runtime = `import { MessagePublisher } from '@warden/messaging';\nexport const probe = MessagePublisher;\n`;
    expect(await boundaryErrors('libs/patterns/src/boundary-probe.ts', runtime)).toEqual([
      expect.stringContaining('A project tagged with "type:domain" can only depend on libs tagged with "type:contracts", "type:domain"'),
    ]);
  });

  it('keep every domain folder plain, file by file: no Nest, NATS, database, metrics, logging or file system', async () => {
    const probe = (from: string) => `import * as m from '${from}';\nexport const probe = m;\n`;
    for (const from of ['@nestjs/common', '@nestjs/microservices', 'nats', '@nats-io/kv', 'typeorm', 'pg', 'prom-client', 'pino', 'nestjs-pino', 'node:fs', 'fs', 'fs/promises', 'node:fs/promises']) {
      expect([from, await purityErrors('libs/gate/src/boundary-probe.ts', probe(from))]).toEqual([from, [expect.stringContaining('Domain code is plain TypeScript')]]);
      expect([from, await purityErrors('apps/console/src/domain/boundary-probe.ts', probe(from))]).toEqual([from, [expect.stringContaining('Domain code is plain TypeScript')]]);
    }
    // The Warden libraries that re-export them are refused as well.
    for (const from of ['@warden/observability', '@warden/messaging', '@warden/messaging-nest', '@warden/service-bootstrap', '@warden/settings-loader']) {
      expect([from, await purityErrors('apps/audit/src/domain/boundary-probe.ts', probe(from))]).toEqual([from, [expect.stringContaining('Domain code depends on contracts and other domain code only')]]);
    }
    // A library's domain folder, and a pure library found by its tag (type:domain), alike.
    expect(await purityErrors('libs/messaging/src/domain/boundary-probe.ts', probe('@nats-io/jetstream'))).toEqual([expect.stringContaining('Domain code is plain TypeScript')]);
    expect(await purityErrors('libs/project-knowledge/src/boundary-probe.ts', probe('node:fs'))).toEqual([expect.stringContaining('Domain code is plain TypeScript')]);
  });

  it('let domain code use plain libraries, its tests the file system, and the rest of a service its framework', async () => {
    const plain = `import Type from 'typebox';\nimport { createHash } from 'node:crypto';\nimport { SEVERITIES } from '@warden/contracts';\nexport const probe = [Type, createHash, SEVERITIES];\n`;
    expect(await purityErrors('libs/ladder/src/boundary-probe.ts', plain)).toEqual([]);
    expect(await purityErrors('apps/intervention-controller/src/domain/boundary-probe.ts', plain)).toEqual([]);
    const files = `import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n`;
    expect(await purityErrors('libs/ladder/src/boundary-probe.spec.ts', files)).toEqual([]);
    const nest = `import { Injectable } from '@nestjs/common';\nimport { readFileSync } from 'node:fs';\nexport const probe = [Injectable, readFileSync];\n`;
    expect(await purityErrors('apps/ladder/src/boundary-probe.ts', nest)).toEqual([]);
  });

  it('keep a util library free of Nest, NATS and the database: observability without Nest, its Nest side a runtime library', async () => {
    const nest = `import { Controller } from '@nestjs/common';\nexport const probe = Controller;\n`;
    expect(await boundaryErrors('libs/observability/src/boundary-probe.ts', nest)).toEqual([expect.stringContaining('A project tagged with "type:util" is not allowed to import "@nestjs/common"')]);
    const nestSide = `import { ObservabilityModule } from '@warden/observability-nest';\nexport const probe = ObservabilityModule;\n`;
    expect(await boundaryErrors('libs/settings-loader/src/boundary-probe.ts', nestSide)).toEqual([
      expect.stringContaining('A project tagged with "type:util" can only depend on libs tagged with "type:util", "type:domain"'),
    ]);
    const nats = `import { Kvm } from '@nats-io/kv';\nexport const probe = Kvm;\n`;
    expect(await boundaryErrors('libs/settings-loader/src/boundary-probe.ts', nats)).toEqual([expect.stringContaining('A project tagged with "type:util" is not allowed to import "@nats-io/kv"')]);
    const core = `import { Controller } from '@nestjs/common';\nimport { MetricsRegistry } from '@warden/observability';\nexport const probe = [Controller, MetricsRegistry];\n`;
    expect(await boundaryErrors('libs/observability-nest/src/boundary-probe.ts', core)).toEqual([]);
  });

  it('keep the bus free of Nest and the database: its Nest transport and the service bootstrap are runtime libraries', async () => {
    for (const from of ['@nestjs/common', '@nestjs/microservices', 'rxjs', 'reflect-metadata', 'typeorm', 'pg']) {
      const code = `import * as m from '${from}';\nexport const probe = m;\n`;
      expect([from, await boundaryErrors('libs/messaging/src/boundary-probe.ts', code)]).toEqual([
        from,
        [expect.stringContaining(`A project tagged with "type:bus" is not allowed to import "${from}"`)],
      ]);
    }
    // Nor through a Warden library: the Nest side of observability (or of anything) is a runtime library.
    const nestSide = `import { ObservabilityModule } from '@warden/observability-nest';\nexport const probe = ObservabilityModule;\n`;
    expect(await boundaryErrors('libs/messaging/src/boundary-probe.ts', nestSide)).toEqual([
      expect.stringContaining('A project tagged with "type:bus" can only depend on libs tagged with "type:contracts", "type:domain", "type:util", "type:tracing", "type:bus"'),
    ]);
    const plain = `import { Kvm } from '@nats-io/kv';\nimport { redactText } from '@warden/observability';\nimport { SERVICES } from '@warden/contracts';\nexport const probe = [Kvm, redactText, SERVICES];\n`;
    expect(await boundaryErrors('libs/messaging/src/boundary-probe.ts', plain)).toEqual([]);
    // Its integration tests run on the harness (built on it: the cycle is allowed in tests only).
    const harness = `import { TestNatsServer } from '@warden/testing';\nexport const probe = TestNatsServer;\n`;
    expect(await boundaryErrors('libs/messaging/test/boundary-probe.spec.ts', harness)).toEqual([]);
    // A util library stays off the bus; the Nest transport and the bootstrap build on it with Nest.
    const bus = `import { BusConnection } from '@warden/messaging';\nexport const probe = BusConnection;\n`;
    expect(await boundaryErrors('libs/settings-loader/src/boundary-probe.ts', bus)).toEqual([
      expect.stringContaining('A project tagged with "type:util" can only depend on libs tagged with "type:util", "type:domain"'),
    ]);
    const transport = `import { Server } from '@nestjs/microservices';\nimport { BusConnection } from '@warden/messaging';\nexport const probe = [Server, BusConnection];\n`;
    expect(await boundaryErrors('libs/messaging-nest/src/boundary-probe.ts', transport)).toEqual([]);
    const bootstrap = `import { NestFactory } from '@nestjs/core';\nimport { MessagingModule } from '@warden/messaging-nest';\nimport { natsSettingsFromEnv } from '@warden/messaging';\nexport const probe = [NestFactory, MessagingModule, natsSettingsFromEnv];\n`;
    expect(await boundaryErrors('libs/service-bootstrap/src/boundary-probe.ts', bootstrap)).toEqual([]);
  });

  it('have barrels export by name', async () => {
    const errors = await ruleErrors('libs/observability/src/index.ts', `export * from './logging/logger.js';\n`, 'no-restricted-syntax');
    expect(errors).toEqual([expect.stringContaining('Export by name')]);
    expect(await ruleErrors('libs/observability/src/index.ts', `export { createLogger } from './logging/logger.js';\n`, 'no-restricted-syntax')).toEqual([]);
  });

  it('keep the gate and the ladder to their own domain libraries, as every service is', async () => {
    const gate = `import { decisionFromVerdict } from '@warden/gate';\nexport const probe = decisionFromVerdict;\n`;
    const ladder = `import { AutomationLadder } from '@warden/ladder';\nexport const probe = AutomationLadder;\n`;
    expect(await boundaryErrors('apps/gate/src/boundary-probe.ts', gate)).toEqual([]);
    expect(await boundaryErrors('apps/ladder/src/boundary-probe.ts', ladder)).toEqual([]);
    expect(await boundaryErrors('apps/gate/src/boundary-probe.ts', ladder)).toEqual([
      expect.stringContaining('A project tagged with "scope:gate" can only depend on libs tagged with "scope:shared", "scope:gate"'),
    ]);
    expect(await boundaryErrors('apps/reviewer/src/boundary-probe.ts', gate)).toEqual([
      expect.stringContaining('A project tagged with "scope:reviewer" can only depend on libs tagged with "scope:shared", "scope:reviewer"'),
    ]);
    // Plain TypeScript, like every domain library.
    const bus = `import { RecordStore } from '@warden/messaging';\nexport const probe = RecordStore;\n`;
    expect(await boundaryErrors('libs/gate/src/boundary-probe.ts', bus)).toEqual([
      expect.stringContaining('A project tagged with "type:domain" can only depend on libs tagged with "type:contracts", "type:domain"'),
    ]);
    expect(await purityErrors('libs/ladder/src/boundary-probe.ts', `import { Injectable } from '@nestjs/common';\nexport const probe = Injectable;\n`)).toEqual([
      expect.stringContaining('Domain code is plain TypeScript'),
    ]);
  });

  it("keep the gate's core free of its features: the relay, the operator API and the human gates use it, not the other way", async () => {
    for (const from of ['../relay/hitl-relay.js', '../hitl/session-views.js', '../human-gates/human-gates.module.js']) {
      const code = `import * as m from '${from}';\nexport const probe = m;\n`;
      expect([from, await ruleErrors('apps/gate/src/core/boundary-probe.ts', code, 'no-restricted-imports')]).toEqual([from, [expect.stringContaining("The gate's core is shared by its features")]]);
    }
    const core = `import { GateStores } from '../core/gate-stores.js';\nexport const probe = GateStores;\n`;
    expect(await ruleErrors('apps/gate/src/relay/boundary-probe.ts', core, 'no-restricted-imports')).toEqual([]);
  });

  it("let the benchmark run the services' domains and the in-process entries they export for it, and nothing else import those", async () => {
    const bench = `import { StepReviewer } from '@warden/review';\nimport { HitlRelay } from '@warden/gate-service/in-process';\nimport { PatternSessions } from '@warden/pattern-detector/in-process';\nexport const probe = [StepReviewer, HitlRelay, PatternSessions];\n`;
    expect(await boundaryErrors('test/bench/src/in-process/boundary-probe.ts', bench)).toEqual([]);
    const entry = `import { AuditAppModule } from '@warden/audit/in-process';\nexport const probe = AuditAppModule;\n`;
    expect(await boundaryErrors('apps/cli/src/boundary-probe.ts', entry)).toEqual([expect.stringContaining('Imports of apps are forbidden')]);
    expect(await boundaryErrors('test/suite/scenarios/boundary-probe.spec.ts', entry)).toEqual([expect.stringContaining('Imports of apps are forbidden')]);
    // The rest of an app stays its own, for the benchmark too.
    const internal = `import { SessionViews } from '../../../../apps/gate/src/hitl/session-views.js';\nexport const probe = SessionViews;\n`;
    expect(await boundaryErrors('test/bench/src/in-process/boundary-probe.ts', internal)).toEqual([expect.stringContaining('Projects cannot be imported by a relative or absolute path')]);
  });

  it('keep a service to its own domain, and let the command line judge in process with any', async () => {
    const other = `import { SessionBreakers } from '@warden/breakers';\nexport const probe = SessionBreakers;\n`;
    expect(await boundaryErrors('apps/reviewer/src/boundary-probe.ts', other)).toEqual([
      expect.stringContaining('A project tagged with "scope:reviewer" can only depend on libs tagged with "scope:shared", "scope:reviewer"'),
    ]);
    const own = `import { StepReviewer } from '@warden/review';\nexport const probe = StepReviewer;\n`;
    expect(await boundaryErrors('apps/reviewer/src/boundary-probe.ts', own)).toEqual([]);
    const cli = `import { StepReviewer } from '@warden/review';\nimport { SessionBreakers } from '@warden/breakers';\nimport { decisionFromVerdict } from '@warden/gate';\nexport const probe = [StepReviewer, SessionBreakers, decisionFromVerdict];\n`;
    expect(await boundaryErrors('apps/cli/src/boundary-probe.ts', cli)).toEqual([]);
  });
});
