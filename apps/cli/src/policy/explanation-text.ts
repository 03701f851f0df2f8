import type { ConditionValue, RuleExplanation, SessionExplanation } from '@warden/review';
import { style } from '../output.js';

/** What the audit recorded of the verdict at the time, beside an explanation worked out now. */
export interface RecordedVerdict {
  verdict: string;
  decided_by?: string;
  rule_hits: string[];
}

const MAX_VALUE = 160;

/** A value as a line shows it: JSON, cut short. */
export function valueText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function conditionLines(condition: ConditionValue, indent: string): string[] {
  const result = condition.error !== undefined ? style.red(`error: ${condition.error}`) : valueText(condition.value);
  const lines = [`${indent}${condition.condition}  → ${result}`];
  for (const part of condition.parts ?? []) {
    // A part that is no condition (a value compared) reads as `name = value`.
    if (part.parts === undefined && typeof part.value !== 'boolean') lines.push(`${indent}    ${part.condition} = ${valueText(part.value)}`);
    else lines.push(...conditionLines(part, `${indent}    `));
  }
  return lines;
}

function ruleHead(rule: RuleExplanation, mark: string): string {
  const tags = [rule.origin, ...(rule.shadow ? ['shadow: never enforced'] : [])].join(', ');
  const found = rule.verdict ? `  ${rule.verdict} ${rule.score!.toFixed(2)}` : '';
  return `  ${mark} ${style.bold(rule.rule)}  ${style.dim(tags)}${found}`;
}

/** Names, several to a line. */
function nameLines(names: readonly string[], width = 100): string[] {
  const lines: string[] = [];
  let line = '   ';
  for (const name of names) {
    if (line.length + name.length + 2 > width && line.trim()) {
      lines.push(line.replace(/,$/, ','));
      line = '   ';
    }
    line += ` ${name},`;
  }
  if (line.trim()) lines.push(line.replace(/,$/, ''));
  return lines;
}

function sessionText(explanation: SessionExplanation): string {
  const { session } = explanation;
  const parts = [
    session.goal ? `goal "${session.goal}"` : 'no goal declared',
    ...(session.environment ? [`environment ${session.environment}`] : []),
    ...(session.phase ? [`phase ${session.phase}`] : []),
    `${session.actions} action(s) before this one, ${session.failures} failed`,
    ...(session.patterns.length ? [`patterns ${session.patterns.join(', ')}`] : []),
    ...(session.level !== undefined ? [`automation level ${session.level}`] : []),
    ...(session.spend_usd !== undefined ? [`spent $${session.spend_usd.toFixed(2)}`] : []),
  ];
  return parts.join(' · ');
}

function actionText(explanation: SessionExplanation): string {
  const { tool, input } = explanation.action;
  return typeof input['command'] === 'string' ? `${tool}: ${input['command']}` : `${tool} ${valueText(input)}`;
}

/**
 * An explanation for a terminal: the action, the policy and the session, the verdict and how the decision
 * engine got there, the rules that matched (with what their conditions gave), the custom rules that did
 * not (with the same), and the built-in ones that did not or did not run, by name.
 */
export function explanationText(explanation: SessionExplanation, policy: string, recorded?: RecordedVerdict): string[] {
  const lines = [style.bold(actionText(explanation)), `Policy: ${policy}`, `Session: ${sessionText(explanation)}`, ''];
  const by = explanation.decided_by_name ? `${explanation.decided_by} ${explanation.decided_by_name}` : explanation.decided_by;
  const advisory = explanation.observed_verdict ? ` (found ${explanation.observed_verdict}, advisory)` : '';
  lines.push(`${style.bold('Verdict:')} ${style.bold(explanation.verdict)}${advisory}, decided by ${by}${explanation.pipeline ? ` (pipeline ${explanation.pipeline})` : ''}`);
  for (const sentence of explanation.why) lines.push(`  ${sentence}`);
  if (recorded) {
    const same = recorded.verdict === explanation.verdict;
    const hits = recorded.rule_hits.length ? `; rules ${recorded.rule_hits.join(', ')}` : '';
    lines.push(`  Recorded at the time: ${recorded.verdict}${recorded.decided_by ? `, decided by ${recorded.decided_by}` : ''}${hits}. ${same ? style.green('The same verdict now.') : style.yellow('Another verdict now: the policy, or what explain can replay of the session (not breakers), differs.')}`);
  }
  const matched = explanation.rules.filter((r) => r.result === 'matched');
  lines.push('', style.bold(`Matched (${matched.length}):`));
  if (!matched.length) lines.push('  none');
  for (const rule of matched) {
    lines.push(ruleHead(rule, rule.shadow ? style.yellow('~') : style.green('✓')));
    for (const condition of rule.conditions ?? []) lines.push(...conditionLines(condition, '      '));
    if (rule.reason) lines.push(style.dim(`      ${rule.reason}`));
  }
  const failed = explanation.rules.filter((r) => r.result === 'failed');
  if (failed.length) {
    lines.push('', style.bold(style.red(`Failed (${failed.length}):`)));
    for (const rule of failed) lines.push(ruleHead(rule, style.red('!')), `      ${rule.error}`);
  }
  const custom = explanation.rules.filter((r) => r.origin === 'custom' && (r.result === 'not_matched' || r.result === 'not_needed'));
  if (custom.length) {
    lines.push('', style.bold(`Custom rules that did not match (${custom.length}):`));
    for (const rule of custom) {
      lines.push(ruleHead(rule, style.dim('✗')));
      if (rule.result === 'not_needed') lines.push(style.dim('      not evaluated: the action runs none of the programs (or names none of the hosts) the rule needs'));
      for (const condition of rule.conditions ?? []) lines.push(...conditionLines(condition, '      '));
    }
  }
  const builtIn = explanation.rules.filter((r) => r.origin === 'built-in');
  const notMatched = builtIn.filter((r) => r.result === 'not_matched').map((r) => (r.shadow ? `${r.rule} (shadow)` : r.rule));
  const notRun = builtIn.filter((r) => r.result === 'not_needed').map((r) => r.rule);
  if (notMatched.length) lines.push('', style.bold(`Built-in rules that did not match (${notMatched.length}):`), ...nameLines(notMatched));
  if (notRun.length) lines.push('', style.bold(`Built-in rules not evaluated, the action has nothing they need (${notRun.length}):`), ...nameLines(notRun));
  if (explanation.switched_off.length) lines.push('', style.bold(`Switched off (${explanation.switched_off.length}):`), ...nameLines(explanation.switched_off));
  if (explanation.rule_errors.length) lines.push('', style.bold('Rule errors:'), ...explanation.rule_errors.map((e) => `  ${e}`));
  lines.push('', style.bold('Reasons the agent is given:'), ...explanation.reasons.map((r) => `  - ${r}`));
  return lines;
}
