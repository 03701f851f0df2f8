import type { Issue } from './issue.js';
import type { InterventionSettings, SessionLimits } from './intervention-settings.js';
import type { CheckpointEntry, DeclaredContext } from './session-record.js';

/**
 * Prompt templates, overridable from the file at soft_correction.custom_prompts_path (YAML or JSON of the
 * same shape). `{{name}}` is replaced by a value of the issue or the session (see `values`); an unknown
 * name is left as it is, so a typo shows in the text rather than disappearing.
 */
export interface PromptTemplates {
  /** Per issue type, and `default` for the others. */
  soft_correction: Record<string, string>;
  context_reinforcement: string;
  throttling_notice: string;
  rollback_guidance: string;
  recovery_plan: string;
}

export const DEFAULT_PROMPTS: PromptTemplates = {
  soft_correction: {
    repetitive_errors: `I notice you're encountering the same error repeatedly. Let's try a different approach:
1. First, let's verify the file path exists: {{file_path}}
2. Check if you have the necessary permissions
3. Consider if there's a typo in the path

What specific error message are you seeing?`,
    scope_creep: `Let's refocus on the original task. You were asked to: {{goal}}

The files you should be working with are in: {{expected_paths}}

Is there a specific reason you need to access {{out_of_scope_path}}?`,
    goal_drift: `Let's ensure we're still aligned with the main objective: {{goal}}

Current progress:
{{progress}}

What's the next step toward completing the main goal?`,
    resource_spiral: `Resource usage is increasing rapidly. Let's optimize:
1. Are there any unnecessary operations we can eliminate?
2. Can we process data in smaller batches?
3. Should we clean up temporary files?

Current resource usage: {{resources}}`,
    ran_against_decision: `A tool call ran that Warden did not approve: {{description}}.
Every tool call, a subagent's too, is proposed to Warden before it runs. If your hooks do not run for a subagent, do that work yourself instead of delegating it, and tell the user.`,
    default: `I've detected a potential issue: {{description}}
Let's reconsider our approach. What are you trying to accomplish?`,
  },
  context_reinforcement: `Let me remind you of the key aspects of this task:

**Original Request**: {{goal}}

**Key Constraints**:
{{constraints}}

**Current Goals** (in priority order):
{{goals}}

**Boundaries**:
{{boundaries}}
{{examples}}
Please proceed with these guidelines in mind.`,
  throttling_notice: `Resource limits have been adjusted to prevent system overload:
{{limits}}

Please work within these constraints.
{{guidance}}`,
  rollback_guidance: `I've rolled back to a previous checkpoint due to: {{description}}

**Checkpoint**: {{checkpoint}}

**What went wrong**: {{analysis}}

**Suggested approach**:
{{approach}}

Let's try again with this approach in mind.`,
  recovery_plan: `There is no safe checkpoint to roll back to for: {{description}}

Recovery plan:
{{steps}}`,
};

const CONSTRAINTS_FOR: Record<string, string[]> = {
  scope_creep: ['IMPORTANT: Only work with files in the specified directories', 'Do not access system files or configuration outside the project'],
  resource_spiral: ['IMPORTANT: Optimize for efficiency - avoid unnecessary operations', 'Process data incrementally rather than loading everything at once'],
};

const EXAMPLES_FOR: Record<string, string> = {
  repetitive_errors: 'Example: when a command fails twice the same way, read the error, check the inputs it names, then change one thing.',
  scope_creep: 'Example: to change the parser, edit files under the expected paths only; ask before touching anything else.',
  goal_drift: 'Example: before each step, say which part of the goal it completes.',
  resource_spiral: 'Example: process 100 files at a time and remove temporary files as you go.',
  hallucination: 'Example: read a file or list a directory before relying on it existing.',
};

const APPROACH_FOR: Record<string, string> = {
  repetitive_errors: 'Read the full error first, check the paths and inputs it mentions, and change one thing at a time.',
  scope_creep: 'Stay within the expected paths; if the task truly needs more, say why before doing it.',
  goal_drift: 'Restate the goal, list what is done, and take the smallest next step toward it.',
  resource_spiral: 'Work in small batches, stop background processes you started, and clean up temporary files.',
  hallucination: 'Verify that files, functions and APIs exist before using them.',
};

/** Fills `{{name}}` placeholders. */
export function render(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}

const bullet = (items: string[], empty: string) => (items.length ? items.map((i) => `- ${i}`).join('\n') : `- ${empty}`);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : undefined);

/** Values an issue and the session give the templates. */
export function values(issue: Issue, context: DeclaredContext): Record<string, string> {
  const d = issue.details;
  const paths = context.expected_paths ?? [];
  const resources = d['resources'] ?? d['growth'];
  return {
    goal: context.goal ?? '(the session declared no goal)',
    primary_goal: context.goal ?? '(the session declared no goal)',
    expected_paths: paths.length ? paths.join(', ') : '(no expected paths declared)',
    constraints: bullet(context.constraints ?? [], 'none declared'),
    description: issue.description,
    issue_type: issue.type,
    file_path: text(d['file_path']) ?? text(d['path']) ?? text(d['command']) ?? '(the path in the error)',
    out_of_scope_path: text(d['out_of_scope_path']) ?? text(d['path']) ?? '(that path)',
    progress: Array.isArray(d['completed_subtasks']) ? bullet(d['completed_subtasks'].map(String), 'nothing reported') : '- (no progress reported)',
    resources: resources && typeof resources === 'object' ? Object.entries(resources).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ') : '(not reported)',
  };
}

/** The soft correction's text for an issue (seed 000 §1). */
export function softCorrection(templates: PromptTemplates, issue: Issue, context: DeclaredContext): string {
  const template = templates.soft_correction[issue.type] ?? templates.soft_correction['default'] ?? DEFAULT_PROMPTS.soft_correction['default']!;
  return render(template, values(issue, context));
}

/**
 * The context reinforcement (seed 000 §2): the declared constraints with the ones the issue calls
 * for added, those relevant to the issue emphasised; boundaries from the expected paths; examples when
 * configured. Strength: light keeps only the request and constraints, strong repeats the boundaries.
 */
export function contextReinforcement(templates: PromptTemplates, issue: Issue, context: DeclaredContext, settings: InterventionSettings['context_reinforcement']): string {
  const added = CONSTRAINTS_FOR[issue.type] ?? [];
  const keywords = issue.type.split('_');
  const constraints = [...(context.constraints ?? []), ...added].map((c) =>
    added.includes(c) || keywords.some((k) => c.toLowerCase().includes(k)) ? `**${c}**` : c,
  );
  const paths = context.expected_paths ?? [];
  const boundaries =
    settings.reinforcement_strength === 'light'
      ? '- (see the constraints)'
      : bullet(
          [
            ...paths.map((p) => `Work only in ${p}`),
            ...(settings.reinforcement_strength === 'strong' ? ['Ask before any action outside these paths', 'Do not start background processes you do not stop'] : []),
          ],
          'no expected paths declared: keep to what the request needs',
        );
  const example = settings.include_examples ? EXAMPLES_FOR[issue.type] : undefined;
  return render(templates.context_reinforcement, {
    ...values(issue, context),
    constraints: bullet(constraints, 'none declared'),
    goals: bullet([context.goal ?? 'the original request', `resolve: ${issue.description}`], ''),
    boundaries,
    examples: example ? `\n**Example**: ${example}\n` : '',
  });
}

const LIMIT_LABELS: Record<keyof SessionLimits, string> = {
  max_file_operations: 'Max file operations',
  max_memory_mb: 'Memory limit (MB)',
  max_tokens: 'Token limit',
  max_execution_time_ms: 'Execution time limit (ms)',
  batch_size: 'Batch size',
  max_iterations: 'Max actions per phase',
  max_cost_usd: 'Cost from now on (USD)',
};

/** The throttling notice with the new limits and the efficiency guidance (seed 000 §3). */
export function throttlingNotice(templates: PromptTemplates, issue: Issue, context: DeclaredContext, limits: SessionLimits): string {
  const lines = (Object.keys(LIMIT_LABELS) as (keyof SessionLimits)[])
    .filter((k) => limits[k] !== undefined)
    .map((k) => `- ${LIMIT_LABELS[k]}: ${limits[k]}`);
  return render(templates.throttling_notice, {
    ...values(issue, context),
    limits: lines.join('\n'),
    guidance: APPROACH_FOR['resource_spiral']!,
  });
}

/** The guidance sent with a rollback (seed 000 §4). */
export function rollbackGuidance(templates: PromptTemplates, issue: Issue, context: DeclaredContext, checkpoint: CheckpointEntry): string {
  return render(templates.rollback_guidance, {
    ...values(issue, context),
    checkpoint: `${checkpoint.id}${checkpoint.label ? ` (${checkpoint.label})` : ''}, saved ${new Date(checkpoint.at).toISOString()}, ${checkpoint.files.length} file(s)`,
    analysis: `${issue.type.replaceAll('_', ' ')} (${issue.severity}, confidence ${issue.confidence})${issue.evidence_action_ids.length ? `, seen in actions ${issue.evidence_action_ids.slice(0, 5).join(', ')}` : ''}`,
    approach: APPROACH_FOR[issue.type] ?? 'Reconsider the approach before repeating what led here; if unsure, ask for guidance.',
  });
}

/** The seed's recovery plan when no checkpoint is safe to return to. */
export function recoveryPlan(issue: Issue, context: DeclaredContext): string[] {
  const steps = [
    'Stop the current line of work and do not repeat the last failing action.',
    `Inspect what changed since the issue started: ${issue.evidence_action_ids.length ? `actions ${issue.evidence_action_ids.slice(0, 5).join(', ')}` : 'the recent actions'}.`,
    'Undo those changes by hand (version control, backups) where they broke something.',
    `Save a checkpoint once the work is in a good state again, then continue toward: ${context.goal ?? 'the original request'}.`,
  ];
  return steps.map((step) => step.slice(0, 2000));
}

export function recoveryPlanText(templates: PromptTemplates, issue: Issue, context: DeclaredContext): string {
  return render(templates.recovery_plan, { ...values(issue, context), steps: recoveryPlan(issue, context).map((s, i) => `${i + 1}. ${s}`).join('\n') });
}

/** Templates from a parsed file over the defaults; soft corrections merge type by type. */
export function resolvePromptTemplates(document: unknown): PromptTemplates {
  if (document === undefined || document === null) return DEFAULT_PROMPTS;
  if (typeof document !== 'object' || Array.isArray(document)) throw new Error('the prompt templates file must be a mapping');
  const doc = document as Record<string, unknown>;
  const known = ['soft_correction', 'context_reinforcement', 'throttling_notice', 'rollback_guidance', 'recovery_plan'];
  const unknown = Object.keys(doc).filter((k) => !known.includes(k));
  if (unknown.length) throw new Error(`unknown prompt templates: ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const soft = doc['soft_correction'] ?? {};
  if (typeof soft !== 'object' || Array.isArray(soft) || Object.values(soft as object).some((v) => typeof v !== 'string')) {
    throw new Error('soft_correction must map issue types to texts');
  }
  const single = (key: Exclude<keyof PromptTemplates, 'soft_correction'>): string => {
    const value = doc[key];
    if (value === undefined) return DEFAULT_PROMPTS[key];
    if (typeof value !== 'string') throw new Error(`${key} must be a text`);
    return value;
  };
  return {
    soft_correction: { ...DEFAULT_PROMPTS.soft_correction, ...(soft as Record<string, string>) },
    context_reinforcement: single('context_reinforcement'),
    throttling_notice: single('throttling_notice'),
    rollback_guidance: single('rollback_guidance'),
    recovery_plan: single('recovery_plan'),
  };
}
