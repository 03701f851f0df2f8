import { Kvm } from '@nats-io/kv';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTOMATION_LEVEL_BUCKET, BREAKER_STATE_BUCKET, breakerStateKey, derivedMessageId, type PayloadOf } from '@warden/contracts';
import { describeServiceContract, eventually } from '@warden/testing';
import { ReviewerAppModule } from '../src/app.module.js';
import { loadReviewerConfig } from '../src/config.js';

const encoder = new TextEncoder();
const configDir = mkdtempSync(join(tmpdir(), 'warden-reviewer-contract-'));
const configPath = join(configDir, 'reviewer.yaml');
const rulesPath = join(configDir, 'rules.yaml');
const knowledgePath = join(configDir, 'knowledge.toml');

const SHADOW_RULE = `
- name: shadow_docker_ban
  shadow: true
  match: { command: "docker run*" }
  verdict: block
  reason: Trying out a ban on docker run.
`;

const KNOWLEDGE = `
[endpoints.playwright]
name = "Playwright Server"
default_url = "http://localhost:9222"
config_key = "PLAYWRIGHT_SERVER_URL"

[[known_issues]]
symptom = "Failed to connect to Playwright server"
common_cause = "Wrong endpoint configuration"
simple_fix = "Check PLAYWRIGHT_SERVER_URL environment variable"
escalation_trap = "playwright install"
`;

writeFileSync(rulesPath, SHADOW_RULE);
writeFileSync(knowledgePath, KNOWLEDGE);
writeFileSync(configPath, `step_reviewer:\n  rules:\n    custom_rules_path: rules.yaml\n  knowledge:\n    files: [knowledge.toml]\n`);

describeServiceContract(
  {
    service: 'reviewer',
    createModule: (env, logger) => ReviewerAppModule.forRoot(loadReviewerConfig(env), logger),
    prepare: async () => ({
      env: { REVIEWER_CONFIG: configPath, REVIEWER_CONFIG_RELOAD_MS: '100' },
      cleanup: async () => rmSync(configDir, { recursive: true, force: true }),
    }),
  },
  (harness) => {
    let sequence = 0;
    const newSession = () => `review-${Date.now().toString(36)}-${++sequence}`;

    async function send<T extends 'session.started' | 'action.outcome' | 'pattern.detected' | 'checkpoint.saved' | 'session.ended'>(
      type: T,
      session: string,
      payload: PayloadOf<T>,
    ): Promise<void> {
      const channel = type.startsWith('session.') ? 'session' : type === 'action.outcome' ? 'outcome' : type === 'pattern.detected' ? 'pattern' : 'checkpoint';
      const before = await harness.processed(channel, type);
      const message: Record<string, unknown> = { ...harness.example(type, session), payload };
      await harness.publishRaw(channel, session, encoder.encode(JSON.stringify(message)), message['id'] as string);
      await harness.waitProcessed(channel, type, before + 1);
    }

    async function review(session: string, tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) {
      const action = harness.example('action.proposed', session) as { id: string; session_id: string; trace_id: string; payload: Record<string, unknown> };
      action.payload = { action_id: `toolu_${action.id.slice(0, 8)}`, kind: 'tool_use', tool, input };
      Object.assign(action, extra);
      await harness.publishRaw('action', session, encoder.encode(JSON.stringify(action)), action.id);
      const verdict = await harness.recorder.waitFor((m) => m.subject.startsWith('warden.verdict.') && m.body.causation_id === action.id);
      return { action, verdict: verdict.body as { id: string; control?: unknown; payload: PayloadOf<'review.verdict'> } & Record<string, unknown> };
    }

    const started = (goal = 'Fix the failing date parser test in src/utils/date.ts'): PayloadOf<'session.started'> => ({
      context: { goal, expected_paths: ['/work/shop/**'], cwd: '/work/shop' },
      agent_kind: 'claude-code',
    });

    describe('verdicts on action.proposed', () => {
      it('blocks rm -rf / with the reason, in the session and trace of the action', async () => {
        const { action, verdict } = await review(newSession(), 'Bash', { command: 'rm -rf /' });
        expect(verdict.payload.verdict).toBe('block');
        expect(verdict.payload.reasons[0]).toContain('Recursive deletion of /');
        expect(verdict).toMatchObject({ session_id: action.session_id, agent_id: 'agent-1', trace_id: action.trace_id });
        expect(verdict.id).toBe(derivedMessageId('review.verdict', `agent-1:${action.session_id}:${action.payload['action_id']}`));
      });

      it('allows a file read, with the analysis in the verdict', async () => {
        const { verdict } = await review(newSession(), 'Read', { file_path: '/work/app/README.md' });
        expect(verdict.payload).toMatchObject({ verdict: 'allow', decided_by: 'matrix', mode: 'blocking', rationality: { score: 1 } });
      });

      it('carries the hitl_required flag of the action to the gate', async () => {
        const { verdict } = await review(newSession(), 'Bash', { command: 'ls' }, { control: { hitl_required: true } });
        expect(verdict.control).toEqual({ hitl_required: true });
      });

      it('reviews a redelivered action into the same verdict, stored once', async () => {
        const session = newSession();
        const { action } = await review(session, 'Bash', { command: 'npm test' });
        await harness.publishRaw('action', session, encoder.encode(JSON.stringify(action)), `${action.id}-again`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const info = await harness.bus.jsm.streams.info('WARDEN_VERDICT', { subjects_filter: `warden.verdict.*.agent-1.${session}` });
        expect(Object.values(info.state.subjects ?? {})).toEqual([1]);
      });
    });

    describe('session context from session.*, action.outcome, pattern.detected and checkpoint.saved', () => {
      it('scores scope against the paths declared in session.started', async () => {
        const session = newSession();
        await send('session.started', session, started());
        const { verdict } = await review(session, 'Write', { file_path: '/srv/other-project/config.json', content: '{}' });
        expect(verdict.payload.risk.factors).toContain('out_of_scope');
        expect(verdict.payload.rationality?.issues).toContain('unrelated_to_goal');
      });

      it('raises the risk of a command that failed before, from action.outcome', async () => {
        const session = newSession();
        await send('session.started', session, started());
        const first = await review(session, 'Bash', { command: 'npm test -- date' });
        await send('action.outcome', session, {
          action_id: first.action.payload['action_id'] as string,
          status: 'error',
          error: { message: 'Expected 2024-01-01, got Invalid Date' },
        });
        const { verdict } = await review(session, 'Bash', { command: 'npm test -- date' });
        expect(verdict.payload.risk.factors).toContain('repeated_failure');
        expect(verdict.payload.risk.score).toBeGreaterThan(first.verdict.payload.risk.score);
      });

      it('adds the pattern reported by the pattern detector to the risk', async () => {
        const session = newSession();
        await send('pattern.detected', session, {
          pattern_id: 'pat-1',
          pattern_type: 'scope_creep',
          severity: 'high',
          confidence: 0.9,
          impact_factor: 0.5,
          description: 'Reads outside the project',
          evidence_action_ids: [],
          details: {},
          episode: 1,
          shadow: false,
        });
        const { verdict } = await review(session, 'Read', { file_path: 'README.md' });
        expect(verdict.payload.risk.factors).toContain('pattern:scope_creep');
      });

      it('counts a deletion as reversible once the session saved a checkpoint', async () => {
        const session = newSession();
        await send('session.started', session, started());
        const before = await review(session, 'Bash', { command: 'rm src/legacy.ts' });
        expect(before.verdict.payload.side_effects?.effects[0]).toMatchObject({ type: 'file_deletion', reversible: false });
        await send('checkpoint.saved', session, { checkpoint_id: 'cp-1', files: [{ path: 'src/legacy.ts' }] });
        const after = await review(session, 'Bash', { command: 'rm src/legacy.ts' });
        expect(after.verdict.payload.side_effects?.effects[0]).toMatchObject({ type: 'file_deletion', reversible: true });
      });

      it('forgets a session after session.ended', async () => {
        const session = newSession();
        await send('session.started', session, started());
        await send('session.ended', session, { status: 'success' });
        const { verdict } = await review(session, 'Write', { file_path: '/srv/other-project/config.json', content: '{}' });
        expect(verdict.payload.risk.factors).not.toContain('out_of_scope');
      });
    });

    describe('state materialised by the breaker and the ladder', () => {
      it('blocks what changes something while a breaker of the session is OPEN, with the breaker’s reason, and allows again when it closes', async () => {
        const session = newSession();
        const kv = await new Kvm(harness.bus.nc).open(BREAKER_STATE_BUCKET);
        const record = (state: 'open' | 'closed') => ({
          agent_id: 'agent-1',
          session_id: session,
          state,
          breakers: [{ breaker: 'iteration', state, reason: 'Iteration limit of 25 reached in implementation' }],
          updated_at: new Date().toISOString(),
        });
        await kv.put(breakerStateKey('agent-1', session), JSON.stringify(record('open')));
        await waitForVerdict(session, 'block');
        const { verdict } = await review(session, 'Write', { file_path: 'NOTES.md', content: 'x' });
        expect(verdict.payload).toMatchObject({ verdict: 'block', decided_by: 'breaker' });
        expect(verdict.payload.reasons[0]).toContain('Iteration limit of 25 reached');
        expect((await review(session, 'Read', { file_path: 'README.md' })).verdict.payload.verdict).toBe('allow');
        await kv.put(breakerStateKey('agent-1', session), JSON.stringify(record('closed')));
        await waitForVerdict(session, 'allow');
      });

      it("requires approval where the agent's automation level does not allow the action", async () => {
        const kv = await new Kvm(harness.bus.nc).open(AUTOMATION_LEVEL_BUCKET);
        await kv.put('agent-1', JSON.stringify({ agent_id: 'agent-1', level: 1, updated_at: new Date().toISOString() }));
        try {
          const session = newSession();
          await send('session.started', session, started());
          const deadline = Date.now() + 10_000;
          let verdict: PayloadOf<'review.verdict'> | undefined;
          while (Date.now() < deadline && verdict?.verdict !== 'require_approval') {
            verdict = (await review(session, 'Edit', { file_path: 'src/utils/date.ts', old_string: 'a', new_string: 'b' })).verdict.payload;
          }
          expect(verdict).toMatchObject({ verdict: 'require_approval', decided_by: 'ladder', automation_level: 1 });
        } finally {
          await kv.delete('agent-1');
        }
      });

      async function waitForVerdict(session: string, expected: string): Promise<void> {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { verdict } = await review(session, 'Write', { file_path: 'NOTES.md', content: 'x' });
          if (verdict.payload.verdict === expected) return;
          if (Date.now() > deadline) throw new Error(`verdict stayed ${verdict.payload.verdict}, expected ${expected}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    });

    describe('configuration files', () => {
      it('counts a shadow rule from the rules file and never enforces it', async () => {
        const { verdict } = await review(newSession(), 'Bash', { command: 'docker run --rm alpine echo hi' });
        expect(verdict.payload.verdict).not.toBe('block');
        expect(verdict.payload.shadow_rule_hits).toContain('shadow_docker_ban');
        // The verdict is published before the review's metrics are counted: wait for the count.
        const metrics = await eventually(
          'the shadow rule counted',
          async () => (await fetch(`${harness.service.url}/metrics`)).text(),
          (text) => /warden_review_rule_hits_total\{rule="shadow_docker_ban",mode="shadow",[^}]*\} [1-9]/.test(text),
        );
        expect(metrics).toMatch(/warden_reviews_total\{verdict="block",decided_by="rule",[^}]*\} [1-9]/);
        expect(metrics).toMatch(/warden_review_cache_lookups_total\{result="miss",[^}]*\} [1-9]/);
        expect(metrics).toMatch(/^warden_review_cache_hit_ratio\{[^}]*\} [0-9.]+$/m);
        expect(metrics).toMatch(/^warden_review_duration_seconds_count\{[^}]*\} [1-9]/m);
      });

      it('applies a custom rule added to the rules file without a restart', async () => {
        const before = await review(newSession(), 'Bash', { command: 'terraform apply -var-file=dev.tfvars' });
        expect(before.verdict.payload.verdict).not.toBe('block');
        writeFileSync(rulesPath, `${SHADOW_RULE}\n- name: no_terraform_apply\n  match: { command: "terraform apply*" }\n  verdict: block\n  reason: Terraform apply changes live infrastructure; run terraform plan and ask for approval.\n`);
        const deadline = Date.now() + 10_000;
        let verdict = before.verdict.payload;
        while (verdict.verdict !== 'block' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          verdict = (await review(newSession(), 'Bash', { command: 'terraform apply -var-file=dev.tfvars' })).verdict.payload;
        }
        expect(verdict).toMatchObject({ verdict: 'block', rule_hits: ['no_terraform_apply'] });
      });

      it('keeps the running rules when the rules file is broken, and says so in a metric', async () => {
        writeFileSync(rulesPath, '- name: broken\n  match: { command_regex: "(" }\n  verdict: block\n  reason: x\n');
        const deadline = Date.now() + 10_000;
        let rejected = 0;
        while (rejected === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          const metrics = await (await fetch(`${harness.service.url}/metrics`)).text();
          rejected = Number(/warden_review_config_reloads_total\{result="rejected",[^}]*\} (\d+)/.exec(metrics)?.[1] ?? 0);
        }
        expect(rejected).toBeGreaterThan(0);
        const { verdict } = await review(newSession(), 'Bash', { command: 'terraform apply -var-file=dev.tfvars' });
        expect(verdict.payload.verdict).toBe('block');
      });

      it('applies a CEL rule without a restart, and keeps it when a broken expression replaces it', async () => {
        const rejectedNow = async () => Number(/warden_review_config_reloads_total\{result="rejected",[^}]*\} (\d+)/.exec(await (await fetch(`${harness.service.url}/metrics`)).text())?.[1] ?? 0);
        const celRule = (when: string) => `- name: no_prod_migrations\n  when: '${when}'\n  verdict: block\n  reason: Migrations in production are run by the release pipeline.\n`;
        const migrate = async () => (await review(newSession(), 'Bash', { command: 'npm run migrate -- --env production' })).verdict.payload;
        writeFileSync(rulesPath, celRule('action.commands.exists(c, c.program == "npm" && "migrate" in c.args && "production" in c.args)'));
        expect(await eventually('the CEL rule applied', migrate, (v) => v.rule_hits?.includes('no_prod_migrations') === true)).toMatchObject({ verdict: 'block' });
        const rejected = await rejectedNow();
        // A misspelt field: the configuration is refused, the running one keeps deciding.
        writeFileSync(rulesPath, celRule('action.comands.exists(c, c.program == "npm")'));
        await eventually('the broken expression refused', rejectedNow, (n) => n > rejected);
        expect(await migrate()).toMatchObject({ verdict: 'block', rule_hits: expect.arrayContaining(['no_prod_migrations']) });
      });

      it("applies an override of a built-in rule's verdict without a restart, and keeps it when an override is refused", async () => {
        const rejectedNow = async () => Number(/warden_review_config_reloads_total\{result="rejected",[^}]*\} (\d+)/.exec(await (await fetch(`${harness.service.url}/metrics`)).text())?.[1] ?? 0);
        const fixtureKey = async () => (await review(newSession(), 'Bash', { command: 'cat /work/shop/test/fixtures/ssh/id_rsa' })).verdict.payload;
        expect(await fixtureKey()).toMatchObject({ verdict: 'require_approval', rule_hits: expect.arrayContaining(['secret_file_read']) });
        const fixtures = "- rule: secret_file_read\n  verdict: warn\n  paths: ['**/test/fixtures/**']\n  reason: The keys under test/fixtures are fakes.\n";
        writeFileSync(rulesPath, `overrides:\n${fixtures}`);
        const lowered = await eventually('the override applied', fixtureKey, (v) => v.verdict === 'warn');
        expect(lowered.rule_hits).toContain('secret_file_read');
        expect(lowered.reasons?.join(' ')).toContain('Policy override: The keys under test/fixtures are fakes.');
        // A real key is not under the override's paths.
        expect((await review(newSession(), 'Bash', { command: 'cat /work/shop/deploy/id_rsa' })).verdict.payload.verdict).toBe('require_approval');
        const rejected = await rejectedNow();
        // Self-protection cannot be weakened: the file is refused and the running overrides keep deciding.
        writeFileSync(rulesPath, `overrides:\n${fixtures}- rule: supervision_tampering\n  verdict: "off"\n  agents: [ci-*]\n`);
        await eventually('the weakening override refused', rejectedNow, (n) => n > rejected);
        expect(await fixtureKey()).toMatchObject({ verdict: 'warn' });
        const { verdict } = await review(newSession(), 'Write', { file_path: '/work/shop/.claude/settings.json', content: '{}' });
        expect(verdict.payload).toMatchObject({ verdict: 'block', rule_hits: expect.arrayContaining(['supervision_tampering']) });
      });

      it('blocks the escalation trap of a known issue from the project knowledge file', async () => {
        const session = newSession();
        await send('session.started', session, started('Make the end-to-end tests pass'));
        const first = await review(session, 'Bash', { command: 'npx playwright test' });
        await send('action.outcome', session, {
          action_id: first.action.payload['action_id'] as string,
          status: 'error',
          error: { message: 'Error: Failed to connect to Playwright server at ws://localhost:3000', class: 'ECONNREFUSED' },
        });
        const { verdict } = await review(session, 'Bash', { command: 'npx playwright install chromium' });
        expect(verdict.payload.verdict).toBe('block');
        expect(verdict.payload.validations?.map((v) => v.validator)).toEqual(expect.arrayContaining(['installation_prevention']));
        expect(verdict.payload.alternatives?.join(' ')).toContain('PLAYWRIGHT_SERVER_URL');
      });
    });
  },
);
