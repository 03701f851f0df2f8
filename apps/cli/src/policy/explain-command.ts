import { readFileSync } from 'node:fs';
import { PHASES } from '@warden/contracts';
import { explainInSession, readReviewSources, type ExplainInSessionRequest, type ProposedAction } from '@warden/review';
import { readSettingsText } from '@warden/settings-loader';
import { integerOption, UsageError } from '../command.js';
import { operatorToken, TOKEN_HELP } from '../operator-token.js';
import { out } from '../output.js';
import { AuditLookupError, auditedAction, DEFAULT_AUDIT_URL } from './audit-action.js';
import { explanationText, type RecordedVerdict } from './explanation-text.js';
import { DEPLOYMENT_POLICY, locatePolicy } from './policy-location.js';
import type { PolicySubcommand } from './policy-subcommand.js';
import { sessionEventsOf, type SessionFacts } from './session-facts.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool call as JSON: Warden's own shape (`{"tool": "Write", "input": {…}}`, an action.proposed payload)
 * or an agent hook's (`{"tool_name": "Write", "tool_input": {…}}`).
 */
export function toolCallAction(text: string, source: string): ProposedAction {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value)) throw new UsageError(`${source}: a tool call is a JSON object`);
  const tool = value['tool'] ?? value['tool_name'];
  const input = value['input'] ?? value['tool_input'];
  if (typeof tool !== 'string' || !tool) throw new UsageError(`${source}: give the tool ("tool", or a hook's "tool_name")`);
  if (!isRecord(input)) throw new UsageError(`${source}: give the tool's input as an object ("input", or a hook's "tool_input")`);
  const kind = typeof value['kind'] === 'string' ? value['kind'] : 'tool_use';
  const cwd = typeof value['cwd'] === 'string' ? { cwd: value['cwd'] } : {};
  return { action_id: 'explained', kind, tool, input, ...cwd };
}

function factsOf(values: Record<string, unknown>): SessionFacts {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const phase = text('phase');
  if (phase !== undefined && !(PHASES as readonly string[]).includes(phase)) throw new UsageError(`--phase must be one of ${PHASES.join(', ')}`);
  const agent = text('agent');
  if (agent !== undefined && !/^[A-Za-z0-9_-]{1,128}$/.test(agent)) throw new UsageError('--agent must be 1-128 letters, digits, - or _');
  const cwd = text('cwd');
  if (cwd !== undefined && !cwd.startsWith('/')) throw new UsageError('--cwd must be an absolute path');
  const facts: SessionFacts = {};
  if (text('goal') !== undefined) facts.goal = text('goal')!;
  if (text('environment') !== undefined) facts.environment = text('environment')!;
  if (phase !== undefined) facts.phase = phase as SessionFacts['phase'];
  if (agent !== undefined) facts.agent = agent;
  if (text('agent-kind') !== undefined) facts.agent_kind = text('agent-kind')!;
  if (cwd !== undefined) facts.cwd = cwd;
  if (Array.isArray(values['expected-path'])) facts.expected_paths = values['expected-path'] as string[];
  if (values['failures'] !== undefined) facts.failures = integerOption(values, 'failures', 0, 0);
  if (values['spend'] !== undefined) facts.spend_usd = spendOf(values['spend'] as string);
  return facts;
}

const SESSION_OPTIONS = ['goal', 'environment', 'phase', 'agent', 'agent-kind', 'cwd', 'expected-path', 'failures', 'spend', 'level'];

export const policyExplain: PolicySubcommand = {
  name: 'explain',
  summary: 'why the reviewer gives one action its verdict: every rule, what its conditions gave, the decision',
  help: `Usage:
  warden policy explain [options] [--] <command...>       a shell command (run with Bash)
  warden policy explain [options] --tool-call FILE|-      a tool call as JSON, from a file or stdin
  warden policy explain [options] --action ID --session S an action of the audit trail

Reviews one action with the policy, in this process, the way the reviewer reviews it (an explaining
review: the same code, recording what it evaluates), and prints:
  - the verdict, and how the decision engine got there: the risk x rationality matrix, the verdicts
    weighed against it strongest first (block > require_approval > modify > warn > allow, then by score),
    and the rule, validator, breaker or level that decided;
  - every rule evaluated, built-in and custom: those that matched, with their verdict and reason; custom
    rules that did not; for each custom rule what every condition gave, and for a CEL condition (when:)
    the value of each part of its && / || chains and of what it compared (session.failures = 3);
  - built-in rules that did not match, or did not run because the action has nothing they need
    (a program, a host), and the rules switched off.

A JSON tool call is {"tool": "Write", "input": {...}} (optionally "kind", "cwd"), or an agent hook's
{"tool_name": ..., "tool_input": ...}.

An action of the audit trail is read from the audit service's HTTP API as the operator (the session's
timeline): the session's messages before it are replayed (declaration, goal and phase changes, earlier
actions and their outcomes, patterns) on their own clock, and the verdict recorded at the time is shown
beside the one the policy gives now. Open breakers are not replayed.

Policy:
  --policy PATH          a policy folder (its reviewer.yaml) or a reviewer configuration file
                         [$REVIEWER_CONFIG, else ${DEPLOYMENT_POLICY} here, else the reviewer's defaults]

What the session has been through (for a command or a tool call; all optional):
  --goal TEXT            the task the agent was given
  --environment NAME     e.g. production
  --phase PHASE          ${PHASES.join(', ')}
  --agent ID             the agent's id [policy-explain]
  --agent-kind KIND      e.g. claude-code
  --cwd DIR              the session's working directory [/work/app]
  --expected-path GLOB   a path the task should touch (repeatable) [the working directory]
  --failures N           commands that failed before this action [0]
  --spend USD            what the session's run has cost so far (session.spend_usd) [0]
  --level N              the agent's automation level (0-4) [none]

Audit trail:
  --action ID            the action's id (action_id)
  --session ID           its session
  --audit-url URL        the audit service's HTTP address [$WARDEN_AUDIT_URL or ${DEFAULT_AUDIT_URL}]
  --token-file PATH      file holding your API token [$WARDEN_OPERATOR_TOKEN]

Output:
  --json                 the explanation as JSON (the policy, and what was recorded, beside it)

${TOKEN_HELP} A viewer's token reads the audit.

Exit status: 0 when the action was explained; 1 when the audit could not be read; 2 on a usage error
or a policy that does not load.

Examples:
  warden policy explain -- terraform apply -auto-approve
  warden policy explain --policy deploy/reviewer --environment production --goal "Scale the api" -- kubectl delete deployment api
  echo '{"tool":"Write","input":{"file_path":"/work/app/infra/main.tf","content":"x"}}' | warden policy explain --failures 3 --tool-call -
  warden policy explain --action toolu_01AbC --session sess-42 --json`,
  options: {
    policy: { type: 'string' },
    'tool-call': { type: 'string' },
    action: { type: 'string' },
    session: { type: 'string' },
    'audit-url': { type: 'string' },
    'token-file': { type: 'string' },
    goal: { type: 'string' },
    environment: { type: 'string' },
    phase: { type: 'string' },
    agent: { type: 'string' },
    'agent-kind': { type: 'string' },
    cwd: { type: 'string' },
    'expected-path': { type: 'string', multiple: true },
    failures: { type: 'string' },
    spend: { type: 'string' },
    level: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const sources = [positionals.length > 0, values['tool-call'] !== undefined, values['action'] !== undefined].filter(Boolean).length;
    if (sources !== 1) throw new UsageError('explain one action: a command, --tool-call FILE (or -), or --action ID --session S');
    const policy = locatePolicy(values['policy'] as string | undefined);
    let request: Omit<ExplainInSessionRequest, 'sources'>;
    let recorded: RecordedVerdict | undefined;
    if (values['action'] !== undefined) {
      const given = SESSION_OPTIONS.filter((o) => values[o] !== undefined);
      if (given.length) throw new UsageError(`--${given[0]} describes a session; an action of the audit trail comes with its own`);
      const sessionId = values['session'];
      if (typeof sessionId !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) throw new UsageError('--action needs --session <session id> (1-128 letters, digits, - or _)');
      const url = ((values['audit-url'] as string | undefined) ?? process.env.WARDEN_AUDIT_URL ?? DEFAULT_AUDIT_URL).replace(/\/+$/, '');
      try {
        const audited = await auditedAction(url, operatorToken(values), sessionId, values['action'] as string);
        request = {
          address: { agentId: audited.agentId, sessionId },
          history: audited.history,
          action: audited.action,
          at: audited.at,
          ...(audited.level !== undefined ? { level: audited.level } : {}),
          ...(audited.spendUsd !== undefined ? { spendUsd: audited.spendUsd } : {}),
        };
        recorded = audited.recorded;
      } catch (error) {
        if (!(error instanceof AuditLookupError)) throw error;
        out.error(error.message);
        return 1;
      }
    } else {
      if (values['session'] !== undefined) throw new UsageError('--session goes with --action');
      const action = positionals.length
        ? { action_id: 'explained', kind: 'tool_use', tool: 'Bash', input: { command: positionals.join(' ') } }
        : toolCallAction(values['tool-call'] === '-' ? readFileSync(0, 'utf8') : readText(values['tool-call'] as string), values['tool-call'] === '-' ? 'stdin' : (values['tool-call'] as string));
      const facts = factsOf(values);
      request = {
        address: { agentId: facts.agent ?? 'policy-explain', sessionId: 'policy-explain' },
        history: sessionEventsOf(facts, 'explain'),
        action,
        ...(values['level'] !== undefined ? { level: levelOf(values) } : {}),
        ...(facts.spend_usd !== undefined ? { spendUsd: facts.spend_usd } : {}),
      };
    }
    let explanation;
    try {
      explanation = explainInSession({ ...request, sources: readReviewSources(policy.config, readSettingsText) });
    } catch (error) {
      throw new UsageError(`${policy.shown}: ${(error as Error).message}`);
    }
    if (values['json'] === true) out.line(JSON.stringify({ policy: policy.config ?? null, ...explanation, ...(recorded ? { recorded } : {}) }, null, 2));
    else for (const line of explanationText(explanation, policy.shown, recorded)) out.line(line);
    return 0;
  },
};

function spendOf(text: string): number {
  const usd = Number(text.replace(/^\$/, ''));
  if (!text.trim() || !Number.isFinite(usd) || usd < 0) throw new UsageError(`--spend must be an amount in USD, such as 12.50 (got "${text}")`);
  return usd;
}

function levelOf(values: Record<string, unknown>): number {
  const level = integerOption(values, 'level', 0, 0);
  if (level > 4) throw new UsageError('--level must be 0-4');
  return level;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}
