import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivedMessageId, validateMessage } from '@warden/contracts';
import { describeServiceContract, operatorHeaders, operatorToken } from '@warden/testing';
import { GateAppModule } from '../src/app.module.js';
import { loadGateConfig } from '../src/config.js';

const encoder = new TextEncoder();
const configDir = mkdtempSync(join(tmpdir(), 'warden-gate-contract-'));
const configPath = join(configDir, 'gates.yaml');
writeFileSync(
  configPath,
  ['gates:', '  - id: contract_gate', '    prompt: Contract gate.', '    when: { path: action.input.command, matches: "^contract-gate" }', '    timeout_ms: 600', '    escalation: contract_team'].join('\n'),
);

/** Every message type the gate publishes; the contract test sees each of them at least once. */
const GATE_EVENTS = [
  'decision.made',
  'control.issued',
  'hitl.paused',
  'hitl.resumed',
  'hitl.intervention_recorded',
  'gate.requested',
  'gate.responded',
  'gate.escalated',
];

describeServiceContract(
  {
    service: 'gate',
    createModule: (env, logger) => GateAppModule.forRoot(loadGateConfig(env), logger),
    prepare: async () => ({ env: { GATE_CONFIG: configPath }, cleanup: async () => rmSync(configDir, { recursive: true, force: true }) }),
  },
  (harness) => {
    type Verdict = { id: string; session_id: string; trace_id: string; control?: unknown; payload: Record<string, unknown> };
    const publishVerdict = async (payload: Record<string, unknown>, session?: string, extra: Record<string, unknown> = {}) => {
      const verdict = harness.example('review.verdict', session) as Verdict;
      verdict.payload = { ...verdict.payload, ...payload };
      Object.assign(verdict, extra);
      await harness.publishRaw('verdict', verdict.session_id, encoder.encode(JSON.stringify(verdict)), verdict.id);
      return verdict;
    };
    const decisionFor = async (verdict: Verdict) =>
      (await harness.recorder.waitFor((m) => m.subject.startsWith('warden.decision.') && m.body.causation_id === verdict.id)).body as Record<string, any>;
    let token: string | undefined;
    const http = async (path: string, body: Record<string, unknown>) => {
      token ??= await operatorToken(harness.bus.nc, 'operator-contract', 'approver');
      const response = await fetch(`${harness.service.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...operatorHeaders(token, 'operator-contract') },
        body: JSON.stringify({ agent_id: 'agent-1', timestamp: new Date().toISOString(), ...body }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    describe('decisions', () => {
      const relay = async (payload: Record<string, unknown>) => {
        const verdict = await publishVerdict(payload);
        return { verdict, decision: await decisionFor(verdict) };
      };

      it('denies a blocked action, on the decision subject of its session and trace', async () => {
        const { verdict, decision } = await relay({ verdict: 'block', reasons: ['Recursive deletion of /'] });
        expect(decision.payload).toMatchObject({ decision: 'deny', reason: 'Recursive deletion of /', action_id: verdict.payload.action_id });
        expect(decision).toMatchObject({ session_id: verdict.session_id, trace_id: verdict.trace_id });
        expect(decision.id).toBe(derivedMessageId('decision.made', `agent-1:${verdict.session_id}:${verdict.payload.action_id}`));
      });

      it('allows an allowed action', async () => {
        const { decision } = await relay({ verdict: 'allow', reasons: ['Read: no rule objects'] });
        expect(decision.payload.decision).toBe('allow');
      });
    });

    describe('gate events', () => {
      it('publishes pause, rewrite, inject and unpause events that match the contracts', async () => {
        const session = `contract-hitl-${Date.now().toString(36)}`;
        expect((await http(`/gateway/sessions/${session}/pause`, { reason: 'Contract' })).body).toEqual({ status: 'ok' });
        const held = await publishVerdict({ verdict: 'allow', reasons: ['ok'], action: { kind: 'tool_use', tool: 'Bash', input: { command: 'ls' } } }, session);
        await harness.recorder.waitFor((m) => m.subject.startsWith('warden.gate_buffer.') && m.body.source_id === held.id);
        expect((await http(`/gateway/sessions/${session}/rewrite`, { original_trace_id: held.trace_id, new_content: '{"command":"ls -la"}' })).body).toEqual({ status: 'ok' });
        expect((await http(`/gateway/sessions/${session}/inject`, { prompt: 'Contract prompt' })).body).toEqual({ status: 'ok' });
        expect((await http(`/gateway/sessions/${session}/reject`, {})).body).toEqual({ status: 'ok' });
        const decision = await decisionFor(held);
        expect(decision.payload).toMatchObject({ decision: 'allow', updated_input: { command: 'ls -la' }, decided_by: 'operator' });
        await harness.recorder.waitFor((m) => m.body.type === 'hitl.resumed' && m.body.session_id === session);
      });

      it('pauses automatically on hitl_required and for a gate, which times out and escalates', async () => {
        const flagged = await publishVerdict({ verdict: 'allow', reasons: ['ok'] }, undefined, { control: { hitl_required: true } });
        await harness.recorder.waitFor((m) => m.body.type === 'hitl.paused' && m.body.session_id === flagged.session_id);
        const gated = await publishVerdict({ verdict: 'allow', reasons: ['ok'], action: { kind: 'tool_use', tool: 'Bash', input: { command: 'contract-gate now' } } });
        const decision = await decisionFor(gated);
        expect(decision.payload).toMatchObject({ decision: 'deny', decided_by: 'gate_timeout' });
        for (const type of ['gate.requested', 'gate.escalated', 'gate.responded']) {
          await harness.recorder.waitFor((m) => m.body.type === type && m.body.session_id === gated.session_id);
        }
      });

      it('validates every gate event it published against libs/contracts', () => {
        const published = harness.emitted().filter((m) => GATE_EVENTS.includes(m.body.type as string));
        expect([...new Set(published.map((m) => m.body.type))].sort()).toEqual([...GATE_EVENTS].sort());
        for (const message of published) {
          const result = validateMessage(message.body);
          expect({ type: message.body.type, ...(result.ok ? { ok: true } : { ok: false, detail: result.detail }) }).toEqual({ type: message.body.type, ok: true });
        }
      });
    });
  },
);
