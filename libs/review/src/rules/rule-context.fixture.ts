import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import type { RuleContext } from './review-rule.js';

/** A rule's view of one action of a fresh session in /work/app; everything is in scope unless `inScope` says otherwise. */
export function ruleContext(tool: string, input: Record<string, unknown>, inScope: (path: string) => boolean = () => true): RuleContext {
  return {
    action: parseAction({ kind: 'tool_use', tool, input }, '/work/app'),
    session: new ReviewSession('agent-1', 's1', 0),
    limits: { maxFileOperations: 500 },
    inScope,
  };
}

export function bashContext(command: string, inScope?: (path: string) => boolean): RuleContext {
  return ruleContext('Bash', { command }, inScope);
}
