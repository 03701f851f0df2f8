import { derivedMessageId } from '@warden/contracts';
import { describeServiceContract } from '@warden/testing';
import { GateAppModule } from '../src/app.module.js';
import { loadGateConfig } from '../src/config.js';

const encoder = new TextEncoder();

describeServiceContract(
  {
    service: 'gate',
    createModule: (env, logger) => GateAppModule.forRoot(loadGateConfig(env), logger),
  },
  (harness) => {
    describe('decisions', () => {
      const relay = async (payload: Record<string, unknown>) => {
        const verdict = harness.example('review.verdict') as { id: string; session_id: string; trace_id: string; payload: Record<string, unknown> };
        verdict.payload = { ...verdict.payload, ...payload };
        await harness.publishRaw('verdict', verdict.session_id, encoder.encode(JSON.stringify(verdict)), verdict.id);
        const decision = await harness.recorder.waitFor((m) => m.subject.startsWith('warden.decision.') && m.body.causation_id === verdict.id);
        return { verdict, decision: decision.body as Record<string, any> };
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
  },
);
