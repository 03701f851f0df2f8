import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ReviewSession } from '../session/review-session.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';

/** How a prerequisite check is done (seed 004's ValidationMethod). */
export type ValidationMethod =
  | { type: 'network_ping'; host: string; port: number }
  | { type: 'service_status'; service_name: string }
  | { type: 'config_check'; key: string; expected?: string }
  | { type: 'endpoint_test'; url: string }
  | { type: 'user_confirmation'; question: string };

export interface PrerequisiteCheck {
  description: string;
  method: ValidationMethod;
  success_criteria: string;
  /** Higher runs first. */
  priority: number;
}

export interface ValidationRisk {
  kind: string;
  description: string;
}

/** Seed 004's ValidationResult. */
export type ValidationResult =
  | { kind: 'approve' }
  | { kind: 'caution'; warning: string }
  | { kind: 'require_confirmation'; reason: string; risks: ValidationRisk[] }
  | { kind: 'block'; reason: string }
  | { kind: 'require_prerequisites'; reason: string; checks: PrerequisiteCheck[] };

/** What the validators see besides the action. */
export interface ValidationContext {
  session: ReviewSession;
  /** Knowledge of the session's project, if a knowledge file applies to it. */
  knowledge?: ProjectKnowledge;
  /** host:port values agents often assume wrongly (settings.validators.suspect_endpoints). */
  suspectEndpoints: readonly string[];
}

/** A supervisory check of one kind of tool call, before it runs. */
export interface ToolValidator {
  readonly id: string;
  appliesTo(action: ParsedAction): boolean;
  validate(action: ParsedAction, context: ValidationContext): ValidationResult;
  /** What the agent could do instead when the validator does not approve. */
  alternatives(action: ParsedAction, context: ValidationContext): string[];
}

/** One validator's non-approving result, as carried in the verdict. */
export interface ValidationFinding {
  validator: string;
  result: Exclude<ValidationResult, { kind: 'approve' }>;
  alternatives: string[];
  /** Evaluated in shadow mode: reported, not enforced. */
  shadow: boolean;
}
