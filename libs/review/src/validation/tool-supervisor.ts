import type { ParsedAction } from '../parsing/parsed-action.js';
import { FileSystemValidator } from './filesystem-validator.js';
import { InstallationValidator } from './installation-validator.js';
import { KnownIssueValidator } from './known-issue-validator.js';
import { NetworkValidator } from './network-validator.js';
import type { ToolValidator, ValidationContext, ValidationFinding } from './tool-validator.js';

export const BUILT_IN_VALIDATORS: readonly ToolValidator[] = [
  new InstallationValidator(),
  new FileSystemValidator(),
  new NetworkValidator(),
  new KnownIssueValidator(),
];

/** Ids of the built-in validators, for settings (`rules.disabled`, `rules.shadow`) and metrics. */
export const VALIDATOR_IDS = ['installation_prevention', 'filesystem_safety', 'network_operations', 'known_issue_trap'] as const;
export type ValidatorId = (typeof VALIDATOR_IDS)[number];

export interface SupervisorOptions {
  /** Validator ids not evaluated. */
  disabled?: readonly string[];
  /** Validator ids evaluated and reported, never enforced. */
  shadow?: readonly string[];
}

export interface SupervisionReport {
  /** Non-approving results, in validator order. */
  findings: ValidationFinding[];
  /** Validators that threw: reported, never fatal to the review. */
  errors: { validator: string; message: string }[];
}

/** Seed 004's ToolCallSupervisor: runs every enabled validator that applies to the action. */
export class ToolSupervisor {
  private readonly validators: readonly ToolValidator[];
  private readonly shadow: ReadonlySet<string>;

  constructor(validators: readonly ToolValidator[] = BUILT_IN_VALIDATORS, options: SupervisorOptions = {}) {
    const disabled = new Set(options.disabled ?? []);
    this.validators = validators.filter((v) => !disabled.has(v.id));
    this.shadow = new Set(options.shadow ?? []);
  }

  validate(action: ParsedAction, context: ValidationContext): SupervisionReport {
    const report: SupervisionReport = { findings: [], errors: [] };
    for (const validator of this.validators) {
      try {
        if (!validator.appliesTo(action)) continue;
        const result = validator.validate(action, context);
        if (result.kind === 'approve') continue;
        const finding: ValidationFinding = { validator: validator.id, result, alternatives: [], shadow: this.shadow.has(validator.id) };
        report.findings.push(finding);
        // A finding stands even when its suggestions fail.
        finding.alternatives = validator.alternatives(action, context);
      } catch (error) {
        report.errors.push({ validator: validator.id, message: errorMessage(error) });
      }
    }
    return report;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
