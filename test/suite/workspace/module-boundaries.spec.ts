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

  it('keep the agent SDK free of the services\' runtime', async () => {
    const errors = await boundaryErrors(
      'libs/sdk/src/boundary-probe.ts',
      `import { MessagePublisher } from '@warden/messaging';\nexport const probe = MessagePublisher;\n`,
    );
    expect(errors).toEqual([expect.stringContaining('A project tagged with "type:sdk" can only depend on libs tagged with "type:contracts"')]);
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
    const code = `import { MessagePublisher } from '@warden/messaging';\nimport { ReviewVerdict } from '@warden/contracts';\nexport const probe = [MessagePublisher, ReviewVerdict];\n`;
    expect(await boundaryErrors('apps/gate/src/boundary-probe.ts', code)).toEqual([]);
  });

  it('let the services\' transport and the agent SDK trace with the tracing library, which depends on no Warden library', async () => {
    const tracing = `import { createMessageTracer } from '@warden/tracing';\nexport const probe = createMessageTracer;\n`;
    expect(await boundaryErrors('libs/sdk/src/boundary-probe.ts', tracing)).toEqual([]);
    expect(await boundaryErrors('libs/messaging/src/boundary-probe.ts', tracing)).toEqual([]);
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
    expect(await ruleErrors('libs/review/src/boundary-probe.ts', nest, 'no-restricted-imports')).toEqual([expect.stringContaining('A domain library is plain TypeScript')]);
    const nats = `import { connect } from '@nats-io/transport-node';\nexport const probe = connect;\n`;
    expect(await ruleErrors('libs/breakers/src/boundary-probe.ts', nats, 'no-restricted-imports')).toEqual([expect.stringContaining('A domain library is plain TypeScript')]);
    const runtime = `import { MessagePublisher } from '@warden/messaging';\nexport const probe = MessagePublisher;\n`;
    expect(await boundaryErrors('libs/patterns/src/boundary-probe.ts', runtime)).toEqual([
      expect.stringContaining('A project tagged with "type:domain" can only depend on libs tagged with "type:contracts", "type:domain"'),
    ]);
  });

  it('keep a service to its own domain, and let the command line judge in process with any', async () => {
    const other = `import { SessionBreakers } from '@warden/breakers';\nexport const probe = SessionBreakers;\n`;
    expect(await boundaryErrors('apps/reviewer/src/boundary-probe.ts', other)).toEqual([
      expect.stringContaining('A project tagged with "scope:reviewer" can only depend on libs tagged with "scope:shared", "scope:reviewer"'),
    ]);
    const own = `import { StepReviewer } from '@warden/review';\nexport const probe = StepReviewer;\n`;
    expect(await boundaryErrors('apps/reviewer/src/boundary-probe.ts', own)).toEqual([]);
    const cli = `import { StepReviewer } from '@warden/review';\nimport { SessionBreakers } from '@warden/breakers';\nexport const probe = [StepReviewer, SessionBreakers];\n`;
    expect(await boundaryErrors('apps/cli/src/boundary-probe.ts', cli)).toEqual([]);
  });
});
