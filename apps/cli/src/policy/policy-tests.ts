import { VERDICTS } from '@warden/contracts';
import { replaySession, type StepReviewer } from '@warden/review';
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { parse as parseYaml } from 'yaml';
import { SessionFacts, sessionEventsOf } from './session-facts.js';

const Verdict = Type.Enum([...VERDICTS]);

/** One case of a policy test file: an action, what the session has been through, the verdict it must get. */
const PolicyTestCase = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    tool: Type.Optional(Type.String({ minLength: 1, description: 'The tool as the agent names it [Bash].' })),
    command: Type.Optional(Type.String({ description: 'Shorthand for input: {command: …}.' })),
    input: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    session: Type.Optional(SessionFacts),
    expect: Type.Object(
      {
        verdict: Type.Union([Verdict, Type.Array(Verdict, { minItems: 1 })]),
        rule: Type.Optional(Type.String({ description: 'A rule that must be among the hits; "none" for no rule hit.' })),
        not_rule: Type.Optional(Type.String({ description: 'A rule that must not be among the hits.' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type PolicyTestCase = Static<typeof PolicyTestCase>;

const PolicyTestFile = Type.Object(
  {
    config: Type.Optional(Type.String({ minLength: 1, description: 'The reviewer configuration, relative to the test file [reviewer.yaml beside it].' })),
    tests: Type.Array(PolicyTestCase, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type PolicyTestFile = Static<typeof PolicyTestFile>;

const checker = Compile(PolicyTestFile);

/** A policy test file that cannot be read: its path and what is wrong, with the field. */
export class PolicyTestFileError extends Error {}

/** Reads a test file (YAML): its schema is checked, and every mistake named with its place. */
export function readPolicyTestFile(text: string, source: string): PolicyTestFile {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new PolicyTestFileError(`${source}: not valid YAML: ${(error as Error).message}`);
  }
  if (!checker.Check(document)) {
    const errors = [...checker.Errors(document)]
      .filter((e) => e.keyword !== 'boolean')
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'}: ${e.message}`);
    throw new PolicyTestFileError(`${source}: ${errors.join('; ')}`);
  }
  const file = document as PolicyTestFile;
  file.tests.forEach((t, i) => {
    if (t.command === undefined && t.input === undefined) throw new PolicyTestFileError(`${source}: /tests/${i} (${t.name}): give command or input`);
    if (t.command !== undefined && t.input !== undefined) throw new PolicyTestFileError(`${source}: /tests/${i} (${t.name}): give command or input, not both`);
  });
  return file;
}

/** What one case got, and whether it is what the case expects. */
export interface PolicyTestResult {
  name: string;
  passed: boolean;
  verdict: string;
  ruleHits: string[];
  reasons: string[];
  /** Why it failed, in a sentence. */
  failure?: string;
  durationMs: number;
}

/**
 * Runs the cases with one reviewer (the policy's configuration), each in a session of its own that has
 * been through what the case says (its failures as failed commands) before the action is reviewed.
 */
export function runPolicyTests(tests: readonly PolicyTestCase[], reviewer: StepReviewer, file: string): PolicyTestResult[] {
  return tests.map((test, i) => {
    const started = performance.now();
    const session = test.session ?? {};
    const address = { agentId: session.agent ?? 'policy-test', sessionId: `policy-test-${i}` };
    replaySession(reviewer, address, sessionEventsOf(session, String(i)));
    reviewer.supervision.applySpend(address.agentId, address.sessionId, session.spend_usd ?? 0);
    const input = test.input ?? { command: test.command! };
    const { verdict, ruleHits } = reviewer.review({ action_id: `policy-test-${i}`, kind: 'tool_use', tool: test.tool ?? 'Bash', input }, address);
    reviewer.endSession(address);
    reviewer.supervision.applyBreaker(address.agentId, address.sessionId, null);
    const expected = Array.isArray(test.expect.verdict) ? test.expect.verdict : [test.expect.verdict];
    const failures: string[] = [];
    if (!expected.includes(verdict.verdict)) failures.push(`verdict ${verdict.verdict}, expected ${expected.join(' or ')}`);
    const rule = test.expect.rule;
    if (rule === 'none' && ruleHits.length) failures.push(`rules ${ruleHits.join(', ')} fired, expected none`);
    if (rule !== undefined && rule !== 'none' && !ruleHits.includes(rule)) failures.push(`rule ${rule} did not fire (${ruleHits.length ? `fired: ${ruleHits.join(', ')}` : 'no rule fired'})`);
    const notRule = test.expect.not_rule;
    if (notRule !== undefined && ruleHits.includes(notRule)) failures.push(`rule ${notRule} fired, expected it not to`);
    return {
      name: test.name,
      passed: failures.length === 0,
      verdict: verdict.verdict,
      ruleHits,
      reasons: verdict.reasons,
      ...(failures.length ? { failure: `${file}: ${failures.join('; ')}` } : {}),
      durationMs: performance.now() - started,
    };
  });
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The results as JUnit XML, one test suite per file, as CI systems read it. */
export function junitXml(suites: readonly { file: string; results: readonly PolicyTestResult[] }[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = suites.reduce((n, s) => n + s.results.length, 0);
  const failed = suites.reduce((n, s) => n + s.results.filter((r) => !r.passed).length, 0);
  lines.push(`<testsuites name="warden policy test" tests="${total}" failures="${failed}">`);
  for (const { file, results } of suites) {
    const time = results.reduce((t, r) => t + r.durationMs, 0) / 1000;
    lines.push(`  <testsuite name="${escapeXml(file)}" tests="${results.length}" failures="${results.filter((r) => !r.passed).length}" time="${time.toFixed(3)}">`);
    for (const r of results) {
      const open = `    <testcase classname="${escapeXml(file)}" name="${escapeXml(r.name)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      if (r.passed) lines.push(`${open}/>`);
      else lines.push(`${open}>`, `      <failure message="${escapeXml(r.failure ?? '')}">${escapeXml(r.reasons.join('\n'))}</failure>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
