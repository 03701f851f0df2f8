// What the services and the command line use of this library.
export { type CustomRuleDefinition } from './rules/custom-rule-definition.js';
export { loadCustomRules } from './rules/custom-rules.js';
export { type ConditionValue } from './rules/review-rule.js';
export { type ProposedAction, type ReviewResult, StepReviewer } from './step-reviewer.js';
export { type ReadText, readReviewSources, type ReviewSources } from './settings/review-sources.js';
export { SupervisionState } from './supervision/supervision-state.js';
export { type Candidate, explainReview, type ReviewExplanation, type RuleExplanation } from './explanation/review-explanation.js';
export { explainInSession, explainInSessionPausing, type ExplainInSessionRequest, REPLAYED_TYPES, replaySession, type SessionEvent, type SessionExplanation, type ExplainedSession } from './explanation/session-replay.js';
export { rebuildSession, type RebuildPolicy } from './session/session-rebuild.js';
export { type ExplainRequest, InvalidExplainRequest, parseExplainRequest } from './explanation/explain-request.js';
export { isRulesDocument, type LintCode, type LintFinding, lintPolicy, lintRulesFile } from './lint/policy-lint.js';
