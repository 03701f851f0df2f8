import { isSettingsMapping, mergeSettings, settingsSection } from '@warden/settings';
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { CustomRuleDefinition } from '../rules/custom-rule-definition.js';
import { PACK_NAMES } from '../rules/rule-packs.js';

const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const RiskThresholds = Type.Object(
  {
    low_threshold: Fraction('Scores below are low risk.'),
    medium_threshold: Fraction('Scores from here are high risk (below: medium).'),
    high_threshold: Fraction('Scores from here are reported as "High risk action" in the reasons.'),
    critical_threshold: Fraction('Scores from here are critical.'),
  },
  { additionalProperties: false },
);

const RationalityThresholds = Type.Object(
  {
    high_threshold: Fraction('Scores from here are high rationality.'),
    medium_threshold: Fraction('Scores from here are medium; below is low, reported as "Low rationality".'),
  },
  { additionalProperties: false },
);

const PackSwitch = Type.Object(
  {
    enabled: Type.Boolean({ description: 'false: the rules of the pack are not evaluated.' }),
    shadow: Type.Boolean({ description: 'true: the rules of the pack are evaluated and counted, never enforced.' }),
  },
  { additionalProperties: false },
);

const RuleSelection = Type.Object(
  {
    builtin: Type.Enum(['all', 'essential', 'none'], { description: 'essential: only the rules that block what is never allowed.' }),
    disabled: Type.Array(Type.String(), { description: 'Rule or validator names not evaluated.' }),
    shadow: Type.Array(Type.String(), { description: 'Rule or validator names evaluated and counted, never enforced.' }),
    custom_rules_path: Type.Union([Type.String(), Type.Null()], { description: 'YAML/JSON file with a list of custom rules (or `{rules: [...]}`).' }),
    custom: Type.Array(CustomRuleDefinition, { maxItems: 5000, description: 'Custom rules written inline.' }),
    packs: Type.Object(Object.fromEntries(PACK_NAMES.map((name) => [name, PackSwitch])), { additionalProperties: false, description: 'Built-in rule packs, each on/off and enforced or shadow.' }),
  },
  { additionalProperties: false },
);

const Mode = Type.Enum(['blocking', 'async'], { description: 'blocking: verdicts are enforced; async: every action proceeds and the verdict is advisory.' });

const Performance = Type.Object(
  {
    max_review_time_ms: Type.Number({ exclusiveMinimum: 0, description: 'A review slower than this is logged and counted.' }),
    async_threshold: Fraction('In blocking mode, an action whose risk is below this proceeds at once; its findings are advisory.'),
  },
  { additionalProperties: false },
);

const PipelineOverride = Type.Object(
  {
    agents: Type.Optional(Type.Array(Type.String(), { description: 'Agent id globs this pipeline applies to.' })),
    environments: Type.Optional(Type.Array(Type.String(), { description: 'Session environments (session.started) it applies to.' })),
    agent_kinds: Type.Optional(Type.Array(Type.String(), { description: 'Agent kinds (claude-code, ...) it applies to.' })),
    enabled: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Mode),
    risk: Type.Optional(Type.Partial(RiskThresholds)),
    rationality: Type.Optional(Type.Partial(RationalityThresholds)),
    rules: Type.Optional(
      Type.Object(
        {
          disabled: Type.Optional(Type.Array(Type.String())),
          shadow: Type.Optional(Type.Array(Type.String())),
          packs: Type.Optional(Type.Object(Object.fromEntries(PACK_NAMES.map((name) => [name, Type.Optional(Type.Partial(PackSwitch))])), { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    performance: Type.Optional(Type.Partial(Performance)),
    limits: Type.Optional(Type.Object({ max_file_operations: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const ReviewerSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'false: every action is allowed without review (the verdict says so).' }),
    mode: Mode,
    risk: RiskThresholds,
    rationality: RationalityThresholds,
    rules: RuleSelection,
    limits: Type.Object(
      {
        max_file_operations: Type.Integer({ minimum: 1, description: 'File-changing actions per session before limit_file_operations blocks.' }),
        history_size: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Actions remembered per session.' }),
      },
      { additionalProperties: false },
    ),
    scope: Type.Object(
      {
        always_in_scope: Type.Array(Type.String(), { description: 'Path globs that never count as out of scope (scratch space).' }),
      },
      { additionalProperties: false },
    ),
    cache: Type.Object(
      {
        enabled: Type.Boolean(),
        ttl_minutes: Type.Number({ exclusiveMinimum: 0 }),
        max_size: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
    performance: Performance,
    knowledge: Type.Object(
      {
        files: Type.Array(Type.String(), { description: 'Project knowledge files (TOML, YAML or JSON): endpoints, known issues, practices.' }),
      },
      { additionalProperties: false },
    ),
    validators: Type.Object(
      {
        suspect_endpoints: Type.Array(Type.String(), { description: 'host:port an agent often assumes wrongly (seed 004: localhost:3000).' }),
      },
      { additionalProperties: false },
    ),
    supervision: Type.Object(
      {
        breaker: Type.Boolean({ description: 'An OPEN breaker of the session blocks its actions.' }),
        ladder: Type.Boolean({ description: "The agent's automation level decides when an action needs approval." }),
        default_level: Type.Union([Type.Integer({ minimum: 0, maximum: 4 }), Type.Null()], {
          description: 'Level of an agent the ladder has not published; null: no ladder check for it.',
        }),
      },
      { additionalProperties: false },
    ),
    sessions: Type.Object(
      {
        max_sessions: Type.Integer({ minimum: 1, description: 'Sessions remembered per replica (least recently used go first).' }),
        idle_minutes: Type.Number({ exclusiveMinimum: 0, description: 'A session idle this long is forgotten.' }),
      },
      { additionalProperties: false },
    ),
    deployment: Type.Object(
      {
        environment: Type.String({ maxLength: 128, description: "Where this reviewer runs (production, staging …): policies read it as env.environment." }),
        cluster: Type.String({ maxLength: 128, description: 'The cluster it runs in: env.cluster.' }),
        labels: Type.Record(Type.String({ maxLength: 128 }), Type.String({ maxLength: 512 }), { description: 'Other labels of the deployment (region, team …): env.labels.' }),
      },
      { additionalProperties: false, description: "The deployment's labels, as custom rules' `when` expressions read them (env)." },
    ),
    pipelines: Type.Record(Type.String(), PipelineOverride, { description: 'Overrides for the agents/environments each pipeline names; the first match wins.' }),
  },
  { additionalProperties: false },
);

export type ReviewerSettings = Static<typeof ReviewerSettingsSchema>;
export type PipelineOverride = Static<typeof PipelineOverride>;

/** The documented defaults: seed 001's thresholds, rule sets, cache and performance settings. */
export const DEFAULT_REVIEWER_SETTINGS: ReviewerSettings = {
  enabled: true,
  mode: 'blocking',
  risk: { low_threshold: 0.3, medium_threshold: 0.6, high_threshold: 0.8, critical_threshold: 0.95 },
  rationality: { high_threshold: 0.8, medium_threshold: 0.5 },
  rules: { builtin: 'all', disabled: [], shadow: [], custom_rules_path: null, custom: [], packs: Object.fromEntries(PACK_NAMES.map((name) => [name, { enabled: true, shadow: false }])) },
  limits: { max_file_operations: 500, history_size: 100 },
  // Scratch space, what is in the user's caches (a tool's cache is rebuilt: deleting one is a common fix; the whole
  // cache directory is not one tool's), and the agent's own files:
  // Claude Code's plans, project memory, skills and transcripts under ~/.claude.
  scope: { always_in_scope: ['/tmp/**', '/var/tmp/**', '/private/tmp/**', '/private/var/folders/**', '/var/folders/**', '~/.cache/*', '~/.cache/*/**', '~/Library/Caches/*', '~/Library/Caches/*/**', '~/.claude/**', '/dev/null'] },
  cache: { enabled: true, ttl_minutes: 5, max_size: 1000 },
  performance: { max_review_time_ms: 100, async_threshold: 0.3 },
  knowledge: { files: [] },
  validators: { suspect_endpoints: ['localhost:3000'] },
  supervision: { breaker: true, ladder: true, default_level: null },
  sessions: { max_sessions: 10_000, idle_minutes: 60 },
  deployment: { environment: '', cluster: '', labels: {} },
  pipelines: {},
};

export class SettingsError extends Error {}

const validator = Compile(ReviewerSettingsSchema);

/**
 * Settings from a configuration document (already parsed from YAML/JSON) over the defaults. Unknown keys,
 * wrong types and thresholds out of order are errors naming the setting, so a typo never silently
 * leaves a default in place.
 */
export function resolveSettings(document: unknown = {}): ReviewerSettings {
  const root = settingsSection(document, 'step_reviewer');
  if (!isSettingsMapping(root)) throw new SettingsError('reviewer configuration must be a mapping');
  const settings = mergeSettings(DEFAULT_REVIEWER_SETTINGS, root);
  if (!validator.Check(settings)) {
    const errors = [...validator.Errors(settings)].slice(0, 5).map((e) => `${e.instancePath || '/'}: ${e.message}`);
    throw new SettingsError(`invalid reviewer configuration: ${errors.join('; ')}`);
  }
  checkThresholds(settings);
  for (const [name, pipeline] of Object.entries(settings.pipelines)) checkThresholds(settingsFor(settings, pipeline), `pipelines.${name}.`);
  const names = new Set<string>();
  for (const rule of settings.rules.custom) {
    if (names.has(rule.name)) throw new SettingsError(`custom rule "${rule.name}" is defined twice`);
    names.add(rule.name);
  }
  return settings;
}

function checkThresholds(settings: ReviewerSettings, prefix = ''): void {
  const { low_threshold, medium_threshold, high_threshold, critical_threshold } = settings.risk;
  if (!(low_threshold <= medium_threshold && medium_threshold <= high_threshold && high_threshold <= critical_threshold)) {
    throw new SettingsError(`${prefix}risk thresholds must rise: low ≤ medium ≤ high ≤ critical`);
  }
  if (settings.rationality.medium_threshold > settings.rationality.high_threshold) {
    throw new SettingsError(`${prefix}rationality.medium_threshold must not exceed rationality.high_threshold`);
  }
}

/** The settings a pipeline override produces: its fields over the base, its rule lists added to the base's. */
export function settingsFor(base: ReviewerSettings, pipeline: PipelineOverride): ReviewerSettings {
  const { agents: _agents, environments: _environments, agent_kinds: _kinds, rules, ...rest } = pipeline;
  const merged = mergeSettings(base, rest);
  if (rules) {
    merged.rules = {
      ...base.rules,
      disabled: [...base.rules.disabled, ...(rules.disabled ?? [])],
      shadow: [...base.rules.shadow, ...(rules.shadow ?? [])],
      packs: mergeSettings(base.rules.packs, rules.packs ?? {}),
    };
  }
  return merged;
}
