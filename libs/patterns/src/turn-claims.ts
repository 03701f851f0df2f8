import type { Step } from './action-step.js';

/**
 * What an agent says when it ends its turn, as far as it can be held against what it did: that checks
 * pass, that failures were there before its change, that something is fixed. Read sentence by sentence;
 * a sentence that hedges, plans or negates ("should pass once CI runs", "tests are not passing yet",
 * "all pass except two") claims nothing.
 */

/** The kinds of check a claim or a command is about. */
export type CheckKind = 'test' | 'build' | 'lint' | 'ci' | 'deploy';

export interface TurnClaims {
  /** The kinds of check the words say pass. */
  passing: CheckKind[];
  /** The words say a failure was there before the agent's change ("pre-existing", "unrelated to my change"). */
  blamesBefore: boolean;
  /** The words say something is fixed, resolved or works now. */
  fixed: boolean;
}

const NOUNS: [RegExp, CheckKind][] = [
  [/^(?:unit |integration |e2e |end-to-end )?(?:tests?|specs?|test suite|suite)$/, 'test'],
  [/^(?:the )?(?:build|builds|compilation|compile|tsc)$/, 'build'],
  [/^(?:lint|linting|linter|type ?checks?|type ?checking|typecheck)$/, 'lint'],
  [/^(?:checks?|ci|ci checks|pipeline|workflow|workflows|pr checks|actions)$/, 'ci'],
  [/^(?:deploy|deployment|deploys|release)$/, 'deploy'],
];

const CHECK_NOUN = 'unit tests?|integration tests?|e2e tests?|end-to-end tests?|tests?|specs?|test suite|suite|build|builds|compilation|tsc|lint|linting|linter|type ?checks?|type ?checking|typecheck|ci checks|pr checks|checks?|ci|pipeline|workflows?|deployment|deploy|release';
const PASS_VERB = 'pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|successful(?:ly)?|clean|compiles?|ok';
const FILLER = '(?:\\s|[:=✅✓✔-]|\\uFE0F)+(?:(?:now|all|still|are|is|has|have|were|was|successfully|fully|completely|both|\\d+\\/\\d+|\\(\\d+\\/\\d+\\))\\s+)*';
/** "all 42 tests pass", "build succeeded", "CI is green", "checks: ✅ passing". */
const PASSING = new RegExp(`\\b(${CHECK_NOUN})${FILLER}(?:${PASS_VERB})\\b`, 'g');
/** "passing tests", "a green build", "successful deployment". */
const PASSING_BEFORE = new RegExp(`\\b(?:passing|green|successful|clean)\\s+(${CHECK_NOUN})\\b`, 'g');

/** A sentence that hedges, plans, asks or negates claims nothing. */
const HEDGE = /\b(?:not|no|never|fail\w*|error\w*|except|but|until|unless|once|should|will|would|could|might|may|if|when|whether|expect\w*|need\w*|try|let me|let's|i'll|going to|to verify|to check|to ensure|to confirm|wait\w*|pending|in progress|running|remaining|yet)\b|n't\b|\?/;

const BLAME =
  /\bpre-?existing\b|\b(?:were|was|are|is) already (?:failing|broken)\b|\bunrelated to (?:my|our|the|these|this) (?:change|changes|work|edit|edits|fix|fixes|pr|refactor\w*)\b|\bnot (?:caused|introduced) by (?:my|our|these|this|the) (?:change|changes|edit|edits|work|fix|fixes)\b|\b(?:existed|were there|was there) before (?:my|our|these|this|the) (?:change|changes|edit|edits)\b/;
/** What a blame is about: a failure, not pre-existing code. */
const FAILURE_WORDS = /\b(?:fail\w*|errors?|warnings?|broken|issues?|lint|type errors?|tests?|flaky)\b/;

const FIXED =
  /\b(?:fixed|resolved)\b|\b(?:now|should now)\s+(?:works?|working|display\w*|shows?|load\w*|render\w*|appear\w*)\b|\b(?:works?|working)\s+(?:now|correctly|properly|as expected)\b|\bshould (?:now )?(?:work|be working)\b/;
/** Plans and questions claim no fix ("let me know if it works now", "once deployed it should work"). */
const FIX_HEDGE = /\b(?:if|once|after|when|let me know|try|please|can you|could you|whether|not|n't)\b|\?/;

function sentencesOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[*_`#>]+/g, ' ')
    .split(/(?<=[.!?])\s+|\n+|;\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function kindOfNoun(noun: string): CheckKind | undefined {
  for (const [pattern, kind] of NOUNS) if (pattern.test(noun.trim())) return kind;
  return undefined;
}

/** What the words that ended a turn claim. */
export function claimsIn(text: string): TurnClaims {
  const passing = new Set<CheckKind>();
  let blamesBefore = false;
  let fixed = false;
  for (const sentence of sentencesOf(text.slice(0, 20_000))) {
    if (BLAME.test(sentence) && FAILURE_WORDS.test(sentence)) blamesBefore = true;
    if (FIXED.test(sentence) && !FIX_HEDGE.test(sentence)) fixed = true;
    if (HEDGE.test(sentence)) continue;
    for (const pattern of [PASSING, PASSING_BEFORE]) {
      for (const match of sentence.matchAll(pattern)) {
        const kind = kindOfNoun(match[1]!);
        if (kind) passing.add(kind);
      }
    }
  }
  return { passing: [...passing], blamesBefore, fixed };
}

/**
 * The user, having looked, says the fix did not take: "still the same", "same error", "nothing changed".
 * A plain "X doesn't work" is as often a new report as a dispute, so it takes a "still" or a "same".
 */
const DISPUTED =
  /\bstill (?:not|no|doesn'?t|does not|dont|don'?t|isn'?t|is not|can'?t|cannot|won'?t|will not|broken|fail\w*|the same|same|getting|seeing|shows?|showing|happening|there|wrong|(?:(?:has|have|is|are|got|get|gives?|giving|shows?|showing)\s+)?(?:an?\s+|that\s+|the\s+|some\s+|same\s+)?(?:error|errors|issue|issues|problem|problems|bug|bugs))\b|\bsame (?:error|issue|problem|bug|thing|result|as before)\b|\bnothing (?:has )?changed\b|\bno change\b|\bit'?s the same\b|\b(?:doesn'?t|does not|didn'?t|did not|don'?t|dont|isn'?t|is not|not) (?:work|working|fixed|resolved)\s+(?:either|again)\b/;

const DISPUTE_OPENING = 300;

/** Whether a request of the user says the agent's last fix did not work. */
export function disputesFix(request: string): boolean {
  // A dispute opens the user's reply; a long specification further down says "no change" of other things.
  return DISPUTED.test(request.slice(0, DISPUTE_OPENING).toLowerCase());
}

const TEST_RUN =
  /(?:^|[\s;&|(])(?:pytest|py\.test|jest|vitest|mocha|ava|tap|rspec|phpunit|pest|ctest|tox|nox|(?:go|cargo|dotnet|swift|deno|bun|flutter|dart|mix|zig) test|(?:npm|pnpm|yarn|bun)(?: run)? test(?::\S+)?|npx (?:jest|vitest|mocha|playwright test|cypress run)|playwright test|cypress run|(?:mvn|mvnw|gradle|gradlew|\.\/gradlew|\.\/mvnw)\b[^;&|]*\btest\b|make (?:test|check)\b|python3? -m (?:pytest|unittest)|bundle exec (?:rspec|rake test)|rake test|invoke-pester)(?=$|[\s;&|)])/;
const BUILD_RUN =
  /(?:^|[\s;&|(])(?:(?:npm|pnpm|yarn|bun)(?: run)? build(?::\S+)?|(?:cargo|go|dotnet|swift|flutter|zig) build|tsc(?![^;&|]*--noemit)|vite build|next build|webpack|xcodebuild|(?:mvn|mvnw|\.\/mvnw)\b[^;&|]*\b(?:package|install|compile|verify)\b|(?:gradle|gradlew|\.\/gradlew)\b[^;&|]*\b(?:build|assemble\w*)\b|make(?:\s+(?:-j\s*\d+|all|build))?(?=$|[\s;&|)])|cmake --build|docker(?: compose| buildx)? build|docker-compose build)(?=$|[\s;&|)])/;
const LINT_RUN =
  /(?:^|[\s;&|(])(?:eslint|ruff(?: check)?|flake8|pylint|mypy|pyright|tsc\b[^;&|]*--noemit|cargo clippy|golangci-lint|(?:npm|pnpm|yarn|bun)(?: run)? (?:lint|typecheck|type-check|check-types|tsc)(?::\S+)?|flutter analyze|dart analyze|rubocop|phpstan|biome (?:check|lint)|prettier --check|(?:npx )?nx (?:run-many -t |affected -t )?(?:lint|typecheck))(?=$|[\s;&|)])/;
const CI_RUN = /(?:^|[\s;&|(])(?:gh (?:run (?:view|watch|list)|pr checks)|glab ci (?:status|view))(?=$|[\s;&|)])/;
const DEPLOY_RUN = /(?:^|[\s;&|(])(?:vercel(?: deploy)?|netlify deploy|fly deploy|flyctl deploy|railway up|firebase deploy|wrangler (?:deploy|publish)|gcloud run deploy|kubectl (?:apply|rollout status)|helm (?:upgrade|install)|heroku releases|docker(?:-compose| compose) up)(?=$|[\s;&|)])/;

const RUNS: [RegExp, CheckKind][] = [
  [TEST_RUN, 'test'],
  [LINT_RUN, 'lint'],
  [BUILD_RUN, 'build'],
  [CI_RUN, 'ci'],
  [DEPLOY_RUN, 'deploy'],
];

/** The kind of check a command runs (a test suite, a build, a linter, a look at CI, a deploy), if it runs one. */
export function checkKindOf(step: Pick<Step, 'cmd'>): CheckKind | undefined {
  const cmd = step.cmd?.toLowerCase();
  if (!cmd) return undefined;
  for (const [pattern, kind] of RUNS) if (pattern.test(cmd)) return kind;
  return undefined;
}

/**
 * What a test run's, a build's or a linter's output says when it failed, in the words of the common tools
 * (case matters: compilers write `error:`, while a passing suite's logs often print `Error: …`).
 */
const FAILED_OUTPUT =
  /\b[1-9]\d* (?:failed|failing|errors?)\b|^(?:FAIL|FAILED|ERROR)\b|(?:^|\s)error(?:\[E\d+\])?: |\berror TS\d+|\bBUILD FAILED\b|\bBuild FAILED\b|\bnpm ERR!|\btest result: FAILED\b|\bFAILURES!|\bTraceback \(most recent call last\)|\b[Cc]ompilation failed\b|\bfatal error\b|\bCommand failed\b/m;
/** A summary that says the run passed: a log line above it that mentions an error is not its result. */
const PASSED_OUTPUT = /\bTests?:?\s+\d+ passed\b|\b\d+ passed(?: in |,| \()|\btest result: ok\b|\bBUILD SUCCESSFUL\b|\bBuild succeeded\b|\b[Cc]ompiled successfully\b|\bbuilt in \d/;
const FAILED_COUNT = /\b[1-9]\d* (?:failed|failing)\b/;

/** Whether a check's output shows that it failed (whatever its exit status said). */
export function showsFailure(output: string): boolean {
  const tail = output.slice(-8_000);
  if (!FAILED_OUTPUT.test(tail)) return false;
  return FAILED_COUNT.test(tail) || !PASSED_OUTPUT.test(tail);
}

/** Whether a step is a check that failed: by its status, or by what its output shows. */
export function failedCheck(step: Step): boolean {
  return !step.blocked && (step.status === 'error' || !!step.shows_failure) && checkKindOf(step) !== undefined;
}

/** A command that sets the agent's change aside to look at the code before it (a baseline). */
const BASELINE = /(?:^|[\s;&|(])git (?:stash(?!\s+(?:list|show))|worktree add|switch|checkout\s+(?!-b\b)(?:-\s|main\b|master\b|origin\/|head[~^]|[0-9a-f]{7,40}\b|\S+\s+--\s))/;

/** Whether a command looks at the code as it was before the agent's change. */
export function looksAtBaseline(step: Pick<Step, 'cmd'>): boolean {
  return !!step.cmd && BASELINE.test(step.cmd.toLowerCase());
}
