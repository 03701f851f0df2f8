import type { PayloadOf } from '@warden/contracts';
import type { ValidationFinding } from './tool-validator.js';

type Verdict = PayloadOf<'review.verdict'>;

/** A validator's finding as the verdict carries it. */
export function validationOf(finding: ValidationFinding): NonNullable<Verdict['validations']>[number] {
  const { result } = finding;
  const base = { validator: finding.validator, result: result.kind, shadow: finding.shadow };
  switch (result.kind) {
    case 'caution':
      return { ...base, reason: result.warning };
    case 'block':
      return { ...base, reason: result.reason };
    case 'require_confirmation':
      return { ...base, reason: result.reason, risks: result.risks };
    case 'require_prerequisites':
      return {
        ...base,
        reason: result.reason,
        checks: result.checks.map((c) => ({ description: c.description, method: { ...c.method }, success_criteria: c.success_criteria, priority: c.priority })),
      };
  }
}
