// What the services and the command line use of this library.
export { type CustomRuleDefinition } from './rules/custom-rule-definition.js';
export { loadCustomRules } from './rules/custom-rules.js';
export { type ProposedAction, type ReviewResult, StepReviewer } from './step-reviewer.js';
export { type ReadText, readReviewSources, type ReviewSources } from './settings/review-sources.js';
export { SupervisionState } from './supervision/supervision-state.js';
