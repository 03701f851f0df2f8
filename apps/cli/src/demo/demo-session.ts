import { newMessageId } from '@warden/contracts';
import type { NatsSettings } from '@warden/messaging';
import { WardenClient, type ActionDecision, type ProposedAction } from '@warden/sdk';

export interface DemoStep {
  title: string;
  action: ProposedAction;
  /** The client that proposes it: a well-behaved agent, or one that sends whatever it has. */
  unchecked?: boolean;
  outcome?: 'success' | 'error';
}

export interface DemoResult {
  step: DemoStep;
  decision: ActionDecision;
}

/** A short scripted session of a coding agent: a harmless read, a destructive command, and a malformed action. */
export const DEMO_STEPS: DemoStep[] = [
  {
    title: 'Read README.md',
    action: { tool: 'Read', input: { file_path: '/work/demo-app/README.md' }, description: 'Learn how the project is built' },
    outcome: 'success',
  },
  {
    title: 'Run the tests',
    action: { tool: 'Bash', input: { command: 'npm test -- --watch=false' }, phase: 'testing' },
    outcome: 'error',
  },
  {
    title: 'Bash: rm -rf / (clean everything and start over)',
    action: { tool: 'Bash', input: { command: 'rm -rf /', description: 'Start from a clean slate' } },
  },
  {
    title: 'A malformed action (tool is a number, input a string)',
    action: { tool: 42 as unknown as string, input: 'rm -rf /' as unknown as Record<string, unknown> },
    unchecked: true,
  },
];

/**
 * Runs the demo session through the running suite with the SDK, as an agent would: declare the session,
 * propose each action, report what happened, end the session.
 */
export async function runDemoSession(agent: NatsSettings, agentId: string, onResult: (result: DemoResult) => void): Promise<DemoResult[]> {
  const options = { servers: agent.servers, agentId, password: agent.password, decisionTimeoutMs: 10_000 };
  const client = await WardenClient.connect(options);
  // A second connection of the same agent that skips the SDK's own checks, like a buggy client would.
  const unchecked = await WardenClient.connect({ ...options, validate: false, name: `warden-agent-${agentId}-unchecked` });
  const sessionId = `demo-${newMessageId().slice(0, 8)}`;
  const results: DemoResult[] = [];
  try {
    const session = client.session(sessionId);
    await session.start({
      context: {
        goal: 'Fix the failing date parser test in demo-app',
        expected_paths: ['/work/demo-app/**'],
        constraints: ['Do not change the public API'],
        cwd: '/work/demo-app',
      },
      phase: 'implementation',
      agent_kind: 'warden-demo',
    });
    for (const step of DEMO_STEPS) {
      const target = (step.unchecked ? unchecked : client).session(sessionId);
      const decision = await target.propose(step.action);
      results.push({ step, decision });
      onResult({ step, decision });
      if (decision.allowed && step.outcome) {
        await session.report({
          actionId: decision.actionId,
          tool: step.action.tool,
          status: step.outcome,
          durationMs: 120,
          ...(step.outcome === 'error' ? { error: { message: 'Expected 2026-11-21, got 2026-11-20', class: 'AssertionError' } } : {}),
        });
      }
    }
    await session.end({ status: 'success', summary: 'Demo session' });
  } finally {
    await unchecked.close();
    await client.close();
  }
  return results;
}
