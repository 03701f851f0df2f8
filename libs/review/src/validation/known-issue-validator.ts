import type { ParsedAction } from '../parsing/parsed-action.js';
import { isDiagnostic } from './diagnostics.js';
import { contentWords, sharesContentWord, type KnownIssue, type Practice, type ProjectKnowledge } from '@warden/project-knowledge';
import { findEscalationTrap } from './project-knowledge.js';
import type { ToolValidator, ValidationContext, ValidationResult } from './tool-validator.js';

const TRAILING_STOP = /[.!?\s]+$/;

function sentence(text: string): string {
  return text.replace(TRAILING_STOP, '');
}

/** Practices about the same thing as the issue: they share a meaningful word with its symptom, cause or trap. */
function practicesFor(knowledge: ProjectKnowledge, issue: KnownIssue): Practice[] {
  const about = contentWords(`${issue.symptom} ${issue.commonCause ?? ''} ${issue.escalationTrap}`);
  return knowledge.practices.filter((p) => sharesContentWord(contentWords(`${p.name} ${p.rule}`), about));
}

/**
 * Known escalation traps of the project (seed 004's `detect_escalation_trap`): a recent failure shows a
 * known issue's symptom and the action is the invasive "fix" the knowledge warns about. Blocked with the
 * known simple fix. When the agent has run a diagnostic after that failure (it checked the configuration
 * or the endpoint), the action only draws a caution: it looked first, and may have found a real need.
 * Read-only actions are never a trap.
 */
export class KnownIssueValidator implements ToolValidator {
  readonly id = 'known_issue_trap';

  appliesTo(action: ParsedAction): boolean {
    return !action.readOnly;
  }

  validate(action: ParsedAction, context: ValidationContext): ValidationResult {
    if (!context.knowledge) return { kind: 'approve' };
    const trap = findEscalationTrap(context.knowledge, action, context.session);
    if (!trap) return { kind: 'approve' };
    const { issue, failure } = trap;
    const cause = issue.commonCause ? ` Common cause: ${sentence(issue.commonCause)}.` : '';
    const text = `This looks like the escalation trap of a known issue: ${sentence(issue.symptom)}. Known simple fix: ${sentence(issue.simpleFix)}.${cause}`;
    // The failing call itself does not count: it is what showed the symptom the agent is now escalating from.
    if (context.session.since(failure).some((r) => isDiagnostic(r, context.knowledge))) {
      return { kind: 'caution', warning: `${text} A check ran since the failure; go ahead only if it showed this is needed.` };
    }
    return { kind: 'block', reason: text };
  }

  alternatives(action: ParsedAction, context: ValidationContext): string[] {
    if (!context.knowledge) return [];
    const trap = findEscalationTrap(context.knowledge, action, context.session);
    if (!trap) return [];
    const practices = practicesFor(context.knowledge, trap.issue).map((p) => (p.validation ? `${sentence(p.rule)}: ${p.validation}` : p.rule));
    return [trap.issue.simpleFix, ...practices];
  }
}
