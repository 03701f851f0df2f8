import { join } from 'node:path';
import { ESLint } from 'eslint';
import { WORKSPACE_ROOT } from '@warden/local-runtime';

const eslint = new ESLint({ cwd: WORKSPACE_ROOT });

/** Lints `code` as if it were the file at `path`, and returns the module-boundary complaints. */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(WORKSPACE_ROOT, path) });
  return result!.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
}

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
});
