import type { ProjectKnowledge } from '@warden/project-knowledge';
import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { branchesMadeBy } from '../rules/git-command.js';
import { gitStepsOf, type GitStep } from '../rules/staged-secrets.js';
import { commandInspects } from './diagnostics.js';
import { commandProbes, mayStartService, requestTargets, type RequestTarget } from './requests.js';

/**
 * What a session remembers of a shell command: the facts later reviews ask of it, read from the parsed
 * command when the action is recorded. Neither its text nor its commands are kept: a session remembers
 * 100 actions, and a long line's text (and the URLs sliced from it) would be copied by every
 * young-generation collection until promoted, and parsed again when a validator asked.
 */
export interface PastCommand {
  /** Where its requests went, one per endpoint (the first URL that named it). */
  targets: readonly RequestTarget[];
  /** It made requests, and all of them only looked (GET without a body, nc -z, ping). */
  probes: boolean;
  /** It may have started something that listens (a background process, `docker compose up`, `npm run dev`). */
  startsService: boolean;
  /** It ran a test suite. */
  runsTests: boolean;
  /** It checked configuration or connectivity (see `commandInspects`), judged by the project knowledge of its session. */
  inspects: boolean;
  /** Git branches it made (`git checkout -b x`); absent when none. */
  branchesMade?: readonly string[];
  /** What it staged of credentials, took back out of the index, committed and pushed (see `gitStepsOf`); absent when none. */
  gitSteps?: readonly GitStep[];
  /** Its status is a search's (`grep`, `rg`, `findstr` last in the line): an exit status of 1 there means nothing was found. */
  searches: boolean;
}

/** Programs whose exit status 1 says they found nothing, not that they failed. */
const SEARCHES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'findstr', 'select-string', 'sls', 'pgrep']);

/** The line's status is its last top-level command's: a search there (`netstat -ano | findstr 5432`). */
function endsInSearch(action: ParsedAction): boolean {
  const last = action.segments.findLast((s) => !s.nested);
  if (!last) return false;
  const cmd = commandName(last).toLowerCase();
  return SEARCHES.has(cmd) || (cmd === 'git' && last.argv[1] === 'grep');
}

const TEST_RUNNERS = /\b(?:jest|vitest|mocha|pytest|go\s+test|cargo\s+test|npm\s+(?:run\s+)?test|yarn\s+test|pnpm\s+test|rspec|phpunit)\b/;

export function pastCommandOf(action: ParsedAction, knowledge?: ProjectKnowledge): PastCommand {
  const targets: RequestTarget[] = [];
  for (const target of requestTargets(action)) {
    // Copied: a URL sliced from the command would keep the whole text alive.
    if (!targets.some((t) => t.address.hostPort === target.address.hostPort)) targets.push({ url: flat(target.url), address: target.address });
  }
  const branches = branchesMadeBy(action.segments).map(flat);
  const gitSteps = gitStepsOf(action).map((step) => ({ kind: step.kind, ...(step.where !== undefined ? { where: flat(step.where) } : {}), ...(step.what !== undefined ? { what: flat(step.what) } : {}) }));
  return {
    targets,
    probes: commandProbes(action),
    startsService: mayStartService(action),
    runsTests: TEST_RUNNERS.test(action.command ?? ''),
    inspects: commandInspects(action, knowledge),
    ...(branches.length ? { branchesMade: branches } : {}),
    ...(gitSteps.length ? { gitSteps } : {}),
    searches: endsInSearch(action),
  };
}

/** A string that holds its own characters, not a slice of a longer one. */
function flat(text: string): string {
  return (' ' + text).slice(1);
}
