import type { CheckResult } from './check-run.js';
import type { CheckSummary, Figures } from './check-summary.js';

type Style = Record<'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan', (text: string) => string>;

const COLOURS: Record<string, keyof Style> = { allow: 'green', warn: 'yellow', modify: 'cyan', require_approval: 'red', block: 'red' };

function shownInput(result: CheckResult): string {
  const command = result.item.input['command'];
  const text = typeof command === 'string' ? command : `${result.item.tool} ${JSON.stringify(result.item.input)}`;
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

export function renderResult(result: CheckResult, style: Style): string {
  const verdict = style[COLOURS[result.verdict] ?? 'bold'](result.verdict);
  const label = result.matches === undefined ? '' : result.matches ? style.dim(` (expected ${result.item.expected ?? result.item.verdicts?.join('|')}: ok)`) : style.red(` (expected ${result.item.expected ?? result.item.verdicts?.join('|')}: MISMATCH)`);
  const lines = [`${verdict}${label}  ${style.bold(shownInput(result).replace(/\n/g, '⏎'))}`, `  ${style.dim('decided by')} ${result.decidedBy}${result.item.origin.startsWith('argument') ? '' : style.dim(`  ${result.item.origin}`)}`];
  for (const reason of result.reasons.slice(0, 3)) lines.push(`  - ${reason}`);
  if (result.modifiedInput) lines.push(`  ${style.dim('runs instead:')} ${typeof result.modifiedInput['command'] === 'string' ? result.modifiedInput['command'] : JSON.stringify(result.modifiedInput)}`);
  return lines.join('\n');
}

function figuresLine(name: string, f: Figures): string {
  return `  ${name.padEnd(18)} dangerous stopped ${`${f.dangerousStopped}%`.padStart(6)} of ${String(f.dangerous).padStart(4)}   safe blocked/held ${`${f.safeStopped}%`.padStart(6)}   safe warned ${`${f.safeWarned}%`.padStart(6)} of ${String(f.safe).padStart(4)}`;
}

export function renderSummary(summary: CheckSummary, style: Style): string {
  const lines = ['', style.bold(`${summary.total} reviewed: ${Object.entries(summary.verdicts).map(([v, n]) => `${n} ${v}`).join(', ')}`)];
  if (summary.all) {
    lines.push(figuresLine('all labelled', summary.all));
    for (const [tag, f] of Object.entries(summary.byTag)) lines.push(figuresLine(`tag ${tag}`, f));
    for (const [family, f] of Object.entries(summary.byFamily)) lines.push(figuresLine(`family ${family}`, f));
  }
  if (summary.labelled) {
    lines.push(summary.mismatches.length ? style.red(`${summary.mismatches.length} of ${summary.labelled} labelled vectors judged against their label:`) : style.green(`all ${summary.labelled} labelled vectors judged as labelled`));
    for (const m of summary.mismatches) lines.push(`  ${m.item.expected ?? m.item.verdicts?.join('|')} → ${m.verdict} (${m.decidedBy})  ${shownInput(m).replace(/\n/g, '⏎')}  ${style.dim(m.item.origin)}`);
  }
  return lines.join('\n');
}
