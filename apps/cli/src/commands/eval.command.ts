import { existsSync } from 'node:fs';
import { UsageError, type Command } from '../command.js';
import { loadLabels, LabelsError, mergeLabels } from '../eval/labels.js';
import { renderEvaluation } from '../eval/eval-report.js';
import { evaluate, passed, recordingsIn } from '../eval/evaluation.js';
import { loadWardenSettings, SettingsFileError } from '../eval/warden-settings.js';
import { out, style } from '../output.js';
import { ProgressBar } from '../replay/progress-bar.js';
import { formatList } from '../replay/read-recording.js';

export const evalCommand: Command = {
  name: 'eval',
  summary: 'Judge recorded sessions in process against labels: false alarms, misses, precision and recall',
  help: `Usage: warden eval <file or directory>... [--labels FILE] [options]

Runs each recorded session through Warden's judgement in this process — reviewer, breakers, pattern
detector and intervention controller, the same code the services run, in a fixed order, on the
recording's own clock — and holds the result against a labels file. No suite is needed, nothing is
published, no agent's track record changes, and the same recordings give the same result: run it to see
what a configuration change does to last week's sessions.

Recordings, in any of these formats (detected from the content):
${formatList()}
A directory means its *.jsonl, *.json and *.traj files, the Aider chat histories and Copilot CLI exports
among its *.md files and the Cursor transcripts among its *.txt files, and those of its folders one level down (a corpus
kept in a folder per agent). A damaged line of
a JSON Lines recording is skipped with a warning naming the file and the line, and counted in the result.

Labels (YAML, keyed by file name; see apps/cli/README.md "warden eval"): per session \`kind: ordinary\`
or \`kind: troubled\` with the findings it should produce (\`expect:\` patterns, breaker trips, rules,
an emergency stop), and per action where it matters \`expect: stop | run | any\` with why.

Prints per session what Warden stopped, reported and tripped; every false alarm and miss with its
evidence; per rule, validator, detector and breaker what it reported, how much of it was wrong, and
its recall; and a summary line.

Options:
  --labels FILE         the labels (repeatable: files are merged) [none: only labelled sessions are scored]
  --labelled-only       judge only the recordings the labels name (e.g. one part of a split corpus)
  --reviewer FILE       the reviewer's configuration (REVIEWER_CONFIG) [defaults]
  --breakers FILE       the breaker's configuration (BREAKER_CONFIG) [defaults]
  --patterns FILE       the pattern detector's configuration (PATTERN_CONFIG) [defaults]
  --interventions FILE  the intervention controller's configuration (INTERVENTIONS_CONFIG) [defaults]
  --approvals A         what a held action gets: approve (it ran in the recording) or reject [approve]
  --verbose             also list every pattern, trip and intervention per session
  --json                print the whole result as JSON

Exit status: 0 when nothing is wrong (no false alarm, no miss the labels do not record as a known gap,
every recording read), 1 otherwise, 2 on a usage error.

Example: warden eval ../shared/corpus/real --labels test/corpus/real-sessions.labels.yaml`,
  options: {
    labels: { type: 'string', multiple: true },
    'labelled-only': { type: 'boolean' },
    reviewer: { type: 'string' },
    breakers: { type: 'string' },
    patterns: { type: 'string' },
    interventions: { type: 'string' },
    approvals: { type: 'string' },
    verbose: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    if (!positionals.length) throw new UsageError('name the recordings to evaluate: warden eval <file or directory>... [--labels FILE]');
    for (const path of positionals) if (!existsSync(path)) throw new UsageError(`no such file or directory: ${path}`);
    const approvals = (values.approvals as string | undefined) ?? 'approve';
    if (approvals !== 'approve' && approvals !== 'reject') throw new UsageError('--approvals must be approve or reject');
    let settings;
    let labels;
    try {
      settings = loadWardenSettings({
        ...(values.reviewer ? { reviewer: values.reviewer as string } : {}),
        ...(values.breakers ? { breakers: values.breakers as string } : {}),
        ...(values.patterns ? { patterns: values.patterns as string } : {}),
        ...(values.interventions ? { interventions: values.interventions as string } : {}),
      });
      const files = (values.labels as string[] | undefined) ?? [];
      labels = files.length ? mergeLabels(files.map(loadLabels)) : undefined;
    } catch (error) {
      if (error instanceof SettingsFileError || error instanceof LabelsError) throw new UsageError(error.message);
      throw error;
    }
    const json = values.json === true;
    const bar = new ProgressBar(process.stderr, !json && process.stderr.isTTY === true);
    if (values['labelled-only'] === true && !labels) throw new UsageError('--labelled-only needs --labels: it judges the recordings the labels name');
    const result = evaluate({ files: recordingsIn(positionals), ...(labels ? { labels } : {}), labelledOnly: values['labelled-only'] === true, settings, approvals, onProgress: (done, total, name) => bar.update(done, total, name) });
    bar.clear();
    for (const session of result.sessions) for (const s of session.skippedLines ?? []) out.warn(`${session.file} line ${s.line}: ${s.reason}; skipped`);
    out.line(json ? JSON.stringify(result, null, 2) : renderEvaluation(result, style, { verbose: values.verbose === true }));
    return passed(result) ? 0 : 1;
  },
};
