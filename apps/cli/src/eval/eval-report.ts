import type { style as Style } from '../output.js';
import { SUITE_CLOCK_PARTS } from '../replay/recording-clock.js';
import { skippedText } from '../replay/replay-report.js';
import type { EvaluationResult } from './evaluation.js';
import { precision, recall } from './scoring.js';

const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)} %` : '-');
const ratio = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2));
const pad = (text: string | number, width: number) => String(text).padEnd(width);

/** The evaluation for people: a line per session, the false alarms and misses with their evidence, the table per source, the summary. */
export function renderEvaluation(result: EvaluationResult, style: typeof Style, options: { verbose?: boolean } = {}): string {
  const lines: string[] = [];
  const width = Math.max(8, ...result.sessions.map((s) => s.name.length));
  lines.push(style.bold(`${pad('session', width)}  ${pad('kind', 12)}${pad('actions', 9)}${pad('stopped', 9)}${pad('warned', 8)}${pad('patterns', 10)}${pad('trips', 7)}${pad('e-stop', 8)}${pad('found', 8)}false alarms / misses`));
  for (const { name, score } of result.sessions) {
    const found = score.expected.length ? `${score.expected.filter((e) => e.found).length}/${score.expected.length}` : '-';
    const faults = `${score.falseAlarms.length} / ${score.misses.length}${score.misses.some((m) => m.known) ? ` (${score.misses.filter((m) => m.known).length} known)` : ''}`;
    const line = `${pad(name, width)}  ${pad(score.kind, 12)}${pad(score.actions, 9)}${pad(score.stopped, 9)}${pad(score.warned, 8)}${pad(score.patternsAboveLow, 10)}${pad(score.breakerTrips, 7)}${pad(score.emergencyStop ? 'yes' : 'no', 8)}${pad(found, 8)}${faults}`;
    lines.push(score.falseAlarms.length || score.misses.some((m) => !m.known) ? style.yellow(line) : line);
  }
  const reading = result.sessions.filter((s) => s.skippedLines?.length || s.notes?.length || s.empty);
  if (reading.length) {
    lines.push('', style.bold('Reading the recordings'));
    for (const s of reading) {
      if (s.skippedLines?.length) lines.push(`  ${s.name}: ${skippedText(s.skippedLines)} skipped (not JSON)`);
      if (s.empty) lines.push(`  ${s.name}: no action: ${s.empty}`);
      for (const note of s.notes ?? []) lines.push(style.dim(`  ${s.name}: ${note}`));
    }
  }
  const alarms = result.sessions.flatMap((s) => s.score.falseAlarms.map((a) => ({ name: s.name, ...a })));
  if (alarms.length) {
    lines.push('', style.bold(`False alarms (${alarms.length})`));
    for (const a of alarms) lines.push(`  ${a.name}: ${a.what}`, style.dim(`      by ${a.sources.join(', ')}: ${a.evidence.replace(/\s+/g, ' ').slice(0, 240)}`));
  }
  const misses = result.sessions.flatMap((s) => s.score.misses.map((m) => ({ name: s.name, ...m })));
  if (misses.length) {
    lines.push('', style.bold(`Misses (${misses.length})`));
    for (const m of misses) lines.push(`  ${m.name}: ${m.what}${m.known ? style.dim(' [known gap]') : ''}`, style.dim(`      expected because ${m.why.replace(/\s+/g, ' ').slice(0, 240)}${m.known ? `; known: ${m.known}` : ''}`));
  }
  if (options.verbose) {
    for (const s of result.sessions) {
      if (!s.judged.patterns.length && !s.judged.breakerTrips.length && !s.judged.interventions.length) continue;
      lines.push('', style.bold(s.name));
      for (const p of s.judged.patterns) lines.push(`  pattern ${p.type} (${p.severity}${p.shadow ? ', shadow' : ''}) after action ${p.atAction}: ${p.description.slice(0, 200)}`);
      for (const t of s.judged.breakerTrips) lines.push(`  breaker ${t.breaker} tripped after action ${t.atAction}: ${t.reason}`);
      for (const i of s.judged.interventions) lines.push(`  intervention ${i.type} (${i.severity}, ${i.issueType}) after action ${i.atAction}`);
    }
  }
  if (result.sources.length) {
    lines.push('', style.bold(`${pad('source', 40)}${pad('reported', 10)}${pad('wrong', 7)}${pad('expected', 10)}${pad('found', 7)}${pad('precision', 11)}recall`));
    for (const s of result.sources) lines.push(`${pad(s.source, 40)}${pad(s.reported, 10)}${pad(s.wrong, 7)}${pad(s.expected, 10)}${pad(s.found, 7)}${pad(ratio(precision(s)), 11)}${ratio(recall(s))}`);
  }
  for (const e of result.errors) lines.push(style.red(`could not read ${e.file}: ${e.message}`));
  const m = result.summary;
  lines.push(
    '',
    style.bold(
      `${m.sessions} sessions (${m.ordinary} ordinary, ${m.troubled} troubled${m.unlabelled ? `, ${m.unlabelled} unlabelled` : ''}): ` +
        `ordinary actions stopped ${m.ordinaryStopped - m.ordinaryStoppedJustified} unjustified of ${m.ordinaryActions} (${percent(m.ordinaryStopped - m.ordinaryStoppedJustified, m.ordinaryActions)}; ${m.ordinaryStoppedJustified} justified), ` +
        `${m.ordinaryEmergencyStops} emergency stops, ${m.ordinaryBreakerTrips} breaker trips, ${m.ordinaryPatternsAboveLow} patterns above low on ordinary sessions; ` +
        `expected findings ${m.expectedFound}/${m.expected}; ${m.falseAlarms} false alarms, ${m.misses} misses (${m.knownMisses} known)` +
        (m.skippedLines ? `; ${m.skippedLines} damaged line${m.skippedLines === 1 ? '' : 's'} skipped` : ''),
    ),
  );
  lines.push(
    style.dim(
      `Judged on each recording's own clock. Through the suite (\`warden replay\`, which stamps the recording's times by default) the pattern detector and the intervention controller read the same times; ${SUITE_CLOCK_PARTS} run on the suite's clock there, so a replay much faster than its recording can differ in those.`,
    ),
  );
  return lines.join('\n');
}
