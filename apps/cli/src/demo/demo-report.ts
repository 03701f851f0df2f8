import type { ActionDecision } from '@warden/sdk';
import { style } from '../output.js';
import type { DemoResult } from './demo-session.js';

function label(decision: ActionDecision): string {
  if (decision.decidedBy === 'rejected') return style.yellow('REJECTED');
  if (!decision.allowed) return style.red('DENY');
  return decision.verdict === 'warn' ? style.yellow('ALLOW (warned)') : style.green('ALLOW');
}

/** One block per action: what was proposed, the decision, who made it, why, and how long it took. */
export function formatResult(index: number, { step, decision }: DemoResult): string {
  const lines = [
    `  ${style.bold(`${index}.`)} ${step.title}`,
    `     → ${label(decision)}  ${style.dim(`verdict ${decision.verdict ?? 'none'}, decided by ${decision.decidedBy}, ${decision.latencyMs.toFixed(1)} ms`)}`,
    `       ${decision.reason}`,
  ];
  return lines.join('\n');
}
