// What the intervention controller and the command line use of this library.
export { InterventionRegistry, isCustomInterventionHandler } from './custom-handlers.js';
export { type IncidentReport } from './incident.js';
export { type Evaluated, InterventionSession, MAX_CLOCK_SKEW_MS, type Plan } from './intervention-session.js';
export { resolveInterventionSettings } from './intervention-settings-file.js';
export { DEFAULT_INTERVENTION_SETTINGS, type InterventionSettings } from './intervention-settings.js';
export { intervene } from './interventions.js';
export { CONTROLLER_OPERATOR, evaluationPublications, respondToIssue, type IssueResponse, type Publication } from './issue-response.js';
export { type Issue, issueFromBlock, issueFromBreakerTrip, issueFromPattern, issueFromRanAgainstDecision, issueFromRejection, issueOf, type IssueMessage } from './issue.js';
export { DEFAULT_PROMPTS, type PromptTemplates, resolvePromptTemplates } from './prompts.js';
export { emptyRecord, type SessionRecord } from './session-record.js';
