import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isWindowsPath } from '@warden/actions';
import { readReviewSources, StepReviewer } from '@warden/review';
import { readSettingsText } from '@warden/settings-loader';
import { UsageError, type Command } from '../command.js';
import { out, style } from '../output.js';
import { ProgressBar } from '../replay/progress-bar.js';
import { CheckInputError, commandItems, readCheckFile, type CheckItem } from '../check/check-input.js';
import { checkItems } from '../check/check-run.js';
import { renderResult, renderSummary } from '../check/check-report.js';
import { summarise } from '../check/check-summary.js';

/** The session's directory as an agent reports it: a Windows one (`C:\Users\me\proj`) as written, on any machine. */
function projectDirectory(dir: string): string {
  return isWindowsPath(dir) ? dir : resolve(dir);
}

export const checkCommand: Command = {
  name: 'check',
  summary: "Review commands or tool calls in process (no suite needed) and show each verdict, the rule that decided and why",
  help: `Usage: warden check [options] <command>...
       warden check [options] --file <file>...

Reviews each command (a Bash tool call) or tool call with the reviewer's rules, in this process: no
NATS, no running suite. Each is reviewed as the first action of a fresh session working in --cwd, so
that paths outside it count as outside the project. Prints the verdict (allow, warn, modify,
require_approval, block), the rule or part of the reviewer that decided, and the reasons.

A file (or - for standard input) holds either one shell command per line (# starts a comment), or
JSON Lines of tool calls: {"tool":"Bash","input":{"command":"rm -rf build"}}. Labelled vectors add
"expected": "block" (must be blocked or held for approval) or "allow" (must not be), and optionally
"tag", "family", "cwd", and "verdicts" (the exact verdicts that are right). For labelled vectors a
summary follows: dangerous stopped %, safe blocked-or-held %, safe warned %, per tag and family, and
the vectors judged against their label.

Options:
  -f, --file FILE     read commands or JSON Lines from FILE (repeatable; - for standard input)
      --tool NAME     tool of commands given as arguments or lines [Bash]
      --cwd DIR       the session's working directory, i.e. the project; a Windows one as written
                      (C:\\Users\\me\\proj) [the current directory]
      --config FILE   a reviewer configuration (YAML or JSON, as REVIEWER_CONFIG; its rules and knowledge files too)
      --json          one JSON object per result, then the summary, instead of text
      --mismatches    print only the labelled vectors judged against their label (and the summary)
      --quiet         print only the summary

Exit status: 0 when every labelled vector got a verdict its label allows and no unlabelled command was
blocked; 1 otherwise (a CI job fails on it); 2 on a usage error.

Examples:
  warden check 'rm -rf /' 'git status'
  warden check --file corpus.jsonl --mismatches
  git log -p | grep '^+' | warden check --file - --cwd "$PWD"`,
  options: {
    file: { type: 'string', short: 'f', multiple: true },
    tool: { type: 'string' },
    cwd: { type: 'string' },
    config: { type: 'string' },
    json: { type: 'boolean' },
    mismatches: { type: 'boolean' },
    quiet: { type: 'boolean' },
  },
  async run(values, positionals) {
    const files = (values.file as string[] | undefined) ?? [];
    if (!files.length && !positionals.length) throw new UsageError('give commands to check, or --file FILE: warden check \'rm -rf build\'');
    let items: CheckItem[];
    try {
      items = [
        ...commandItems(positionals, (values.tool as string | undefined) ?? 'Bash'),
        ...files.flatMap((file) => readCheckFile(file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8'), file === '-' ? 'stdin' : file)),
      ];
    } catch (error) {
      if (error instanceof CheckInputError || (error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError((error as Error).message);
      throw error;
    }
    const config = values.config as string | undefined;
    const reviewer = new StepReviewer(config ? readReviewSources(config, readSettingsText) : {});
    const json = values.json === true;
    const bar = new ProgressBar(process.stderr, !json && process.stderr.isTTY === true && items.length > 200);
    const results = checkItems(items, { reviewer, cwd: projectDirectory((values.cwd as string | undefined) ?? process.cwd()), onProgress: (done, total) => bar.update(done, total, 'reviewed') });
    bar.clear();
    const summary = summarise(results);
    const shown = values.quiet === true ? [] : values.mismatches === true ? summary.mismatches : results;
    if (json) {
      for (const r of shown) out.line(JSON.stringify({ ...r.item, verdict: r.verdict, decided_by: r.decidedBy, reasons: r.reasons, ...(r.matches === undefined ? {} : { matches: r.matches }), ...(r.modifiedInput ? { modified_input: r.modifiedInput } : {}) }));
      out.line(JSON.stringify({ summary: { ...summary, mismatches: summary.mismatches.map((m) => m.item.origin) } }));
    } else {
      for (const r of shown) out.line(renderResult(r, style));
      if (results.length > 1 || summary.labelled) out.line(renderSummary(summary, style));
    }
    const blockedUnlabelled = results.some((r) => r.matches === undefined && r.verdict === 'block');
    return summary.mismatches.length || blockedUnlabelled ? 1 : 0;
  },
};
