import { derivedMessageId } from '@warden/contracts';
import { describeServiceContract } from '@warden/testing';
import { ReviewerAppModule } from '../src/app.module.js';
import { loadReviewerConfig } from '../src/config.js';

const encoder = new TextEncoder();

describeServiceContract(
  {
    service: 'reviewer',
    createModule: (env, logger) => ReviewerAppModule.forRoot(loadReviewerConfig(env), logger),
  },
  (harness) => {
    describe('verdicts', () => {
      const review = async (input: Record<string, unknown>, tool = 'Bash', extra: Record<string, unknown> = {}) => {
        const action = harness.example('action.proposed') as { id: string; session_id: string; payload: Record<string, unknown> };
        action.payload = { action_id: `toolu_${action.id.slice(0, 8)}`, kind: 'tool_use', tool, input };
        Object.assign(action, extra);
        await harness.publishRaw('action', action.session_id, encoder.encode(JSON.stringify(action)), action.id);
        const verdict = await harness.recorder.waitFor((m) => m.subject.startsWith('warden.verdict.') && m.body.causation_id === action.id);
        return { action, verdict: verdict.body as Record<string, any> };
      };

      it('blocks rm -rf / with the reason, in the session and trace of the action', async () => {
        const { action, verdict } = await review({ command: 'rm -rf /' });
        expect(verdict.payload.verdict).toBe('block');
        expect(verdict.payload.reasons[0]).toContain('Recursive deletion of /');
        expect(verdict).toMatchObject({ session_id: action.session_id, agent_id: 'agent-1', trace_id: (action as any).trace_id });
        expect(verdict.id).toBe(derivedMessageId('review.verdict', `agent-1:${action.session_id}:${action.payload.action_id}`));
      });

      it('allows a file read', async () => {
        const { verdict } = await review({ file_path: '/work/app/README.md' }, 'Read');
        expect(verdict.payload.verdict).toBe('allow');
      });

      it('carries the hitl_required flag of the action to the gate', async () => {
        const { verdict } = await review({ command: 'ls' }, 'Bash', { control: { hitl_required: true } });
        expect(verdict.control).toEqual({ hitl_required: true });
      });

      it('reviews a redelivered action into the same verdict, stored once', async () => {
        const { action } = await review({ command: 'npm test' });
        await harness.publishRaw('action', action.session_id, encoder.encode(JSON.stringify(action)), `${action.id}-again`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const info = await harness.bus.jsm.streams.info('WARDEN_VERDICT', {
          subjects_filter: `warden.verdict.*.agent-1.${action.session_id}`,
        });
        expect(Object.values(info.state.subjects ?? {})).toEqual([1]);
      });
    });
  },
);
