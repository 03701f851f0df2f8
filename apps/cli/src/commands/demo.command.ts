import type { Command } from '../command.js';
import { formatResult } from '../demo/demo-report.js';
import { runDemoSession } from '../demo/demo-session.js';
import { out, style } from '../output.js';
import { printRunning, runUntilInterrupted, startSuite, SUITE_OPTIONS, SUITE_OPTIONS_HELP } from './up.command.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Run the suite and a scripted agent session through it',
  help: `Usage: warden demo [options]

Starts the suite as \`warden up\` does, then plays a short session of a coding agent through it with the
SDK: a file read (allowed), the tests (allowed), rm -rf / (denied) and a malformed action (rejected with
the reason). Prints the decision for each, then keeps the suite running until Ctrl-C.

${SUITE_OPTIONS_HELP}`,
  options: SUITE_OPTIONS,
  async run(values) {
    const suite = await startSuite(values);
    let failed = false;
    try {
      out.line();
      out.line(style.bold('Demo session (agent demo-agent)'));
      let index = 0;
      await runDemoSession(suite.agentSettings('demo-agent'), 'demo-agent', (result) => {
        out.line(formatResult(++index, result));
        if (result.decision.decidedBy === 'fallback') failed = true;
      });
    } catch (error) {
      await suite.stop();
      throw error;
    }
    printRunning(suite);
    if (failed) out.warn('some actions got no answer from Warden in time; see the logs');
    if (values.exit) {
      await suite.stop();
      return failed ? 1 : 0;
    }
    return runUntilInterrupted(suite);
  },
};
