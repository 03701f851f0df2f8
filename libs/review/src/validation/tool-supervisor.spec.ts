import { parseAction, type ParsedAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import { BUILT_IN_VALIDATORS, ToolSupervisor, VALIDATOR_IDS } from './tool-supervisor.js';
import type { ToolValidator, ValidationContext } from './tool-validator.js';

const CWD = '/work/app';
const bash = (command: string, description?: string) =>
  parseAction({ kind: 'tool_use', tool: 'Bash', input: description ? { command, description } : { command } }, CWD);

const KNOWLEDGE: ProjectKnowledge = {
  source: 'knowledge.toml',
  appliesTo: [],
  endpoints: [{ name: 'Playwright Server', defaultUrl: 'http://localhost:9222', configKey: 'PLAYWRIGHT_SERVER_URL', healthCheck: '/json/version' }],
  configPatterns: [],
  practices: [],
  knownIssues: [
    {
      symptom: 'Failed to connect to Playwright server',
      commonCause: 'Wrong endpoint configuration',
      simpleFix: 'Check PLAYWRIGHT_SERVER_URL environment variable',
      escalationTrap: 'install playwright browsers',
    },
  ],
};

/** The seed's story: the tests cannot reach the browser server. */
function afterPlaywrightFailure(knowledge?: ProjectKnowledge): ValidationContext {
  const session = new ReviewSession('agent-1', 's1', 1_000);
  session.recordAction(bash('npx playwright test'), 'a1', 'allow', 1_001);
  session.recordOutcome({ actionId: 'a1', status: 'error', error: { message: 'Failed to connect to Playwright server at localhost:3000 ECONNREFUSED', class: 'ECONNREFUSED' } }, 1_002);
  return knowledge ? { session, knowledge, suspectEndpoints: ['localhost:3000'] } : { session, suspectEndpoints: ['localhost:3000'] };
}

const fixed = (id: string, behaviour: () => ReturnType<ToolValidator['validate']>): ToolValidator => ({
  id,
  appliesTo: () => true,
  validate: behaviour,
  alternatives: () => [`instead of ${id}`],
});

describe('ToolSupervisor', () => {
  const installBrowsers = bash('npx playwright install chromium', 'Install Playwright browsers');

  it('lists the built-in validators', () => {
    expect(BUILT_IN_VALIDATORS.map((v) => v.id)).toEqual([...VALIDATOR_IDS]);
    expect(VALIDATOR_IDS).toEqual(['installation_prevention', 'filesystem_safety', 'network_operations', 'known_issue_trap']);
  });

  it("holds the seed's browser install after a connection failure", () => {
    const { findings, errors } = new ToolSupervisor().validate(installBrowsers, afterPlaywrightFailure(KNOWLEDGE));
    expect(errors).toEqual([]);
    expect(findings.map((f) => [f.validator, f.result.kind, f.shadow])).toEqual([
      ['installation_prevention', 'require_prerequisites', false],
      ['known_issue_trap', 'block', false],
    ]);
    expect(findings[1]!.alternatives).toEqual(['Check PLAYWRIGHT_SERVER_URL environment variable']);
  });

  it('lets the install through, with a caution, once the agent looked at the configuration', () => {
    const context = afterPlaywrightFailure(KNOWLEDGE);
    context.session.recordAction(bash('cat .env'), 'a2', 'allow', 1_003);
    context.session.recordOutcome({ actionId: 'a2', status: 'success' }, 1_004);
    const { findings } = new ToolSupervisor().validate(installBrowsers, context);
    expect(findings.map((f) => [f.validator, f.result.kind])).toEqual([['known_issue_trap', 'caution']]);
    expect(new ToolSupervisor().validate(bash('npx playwright install chromium'), context).findings).toEqual([]);
  });

  it('reports nothing for an ordinary action', () => {
    expect(new ToolSupervisor().validate(bash('npm test'), afterPlaywrightFailure(KNOWLEDGE))).toEqual({ findings: [], errors: [] });
  });

  it('skips disabled validators and marks shadow ones', () => {
    const supervisor = new ToolSupervisor(BUILT_IN_VALIDATORS, { disabled: ['known_issue_trap'], shadow: ['installation_prevention'] });
    const { findings } = supervisor.validate(installBrowsers, afterPlaywrightFailure(KNOWLEDGE));
    expect(findings.map((f) => [f.validator, f.shadow])).toEqual([['installation_prevention', true]]);
  });

  it('keeps going when a validator throws, and reports it', () => {
    const broken = fixed('broken', () => {
      throw new Error('boom');
    });
    const applyBroken: ToolValidator = { ...fixed('apply_broken', () => ({ kind: 'approve' })), appliesTo: () => { throw 'not an error'; } };
    const alternativesBroken: ToolValidator = {
      ...fixed('alternatives_broken', () => ({ kind: 'caution', warning: 'careful' })),
      alternatives: () => {
        throw new Error('no ideas');
      },
    };
    const warns = fixed('warns', () => ({ kind: 'caution', warning: 'look twice' }));
    const approves = fixed('approves', () => ({ kind: 'approve' }));
    const supervisor = new ToolSupervisor([broken, applyBroken, alternativesBroken, warns, approves]);
    const action: ParsedAction = bash('ls');
    expect(supervisor.validate(action, afterPlaywrightFailure())).toEqual({
      findings: [
        { validator: 'alternatives_broken', result: { kind: 'caution', warning: 'careful' }, alternatives: [], shadow: false },
        { validator: 'warns', result: { kind: 'caution', warning: 'look twice' }, alternatives: ['instead of warns'], shadow: false },
      ],
      errors: [
        { validator: 'broken', message: 'boom' },
        { validator: 'apply_broken', message: 'not an error' },
        { validator: 'alternatives_broken', message: 'no ideas' },
      ],
    });
  });
});
