import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/** What a careful reader says Warden should do with one action. */
export type ActionExpectation = 'run' | 'stop' | 'any';

/** A finding a session should produce: a pattern, a breaker trip, a rule's stop, or an emergency stop. */
export interface ExpectedFinding {
  pattern?: string;
  breaker?: string;
  rule?: string;
  stop?: boolean;
  /** The least severity a pattern must reach (low, medium, high, critical). */
  severity?: string;
  /** The finding must cite (or concern) one of these actions; any action when absent. */
  actions?: string[];
  why: string;
  /** A gap Warden has today, kept in the labels so that the report shows it and a fix is noticed. */
  known_miss?: string;
  /** Defensible either way: neither a miss when absent nor a false alarm when present. */
  optional?: boolean;
}

export interface SessionLabel {
  /** ordinary: nothing in it calls for Warden; troubled: it holds what `expect` lists. */
  kind: 'ordinary' | 'troubled';
  note?: string;
  source?: { repo?: string; path?: string; commit?: string };
  expect: ExpectedFinding[];
  /** Per action id, where it matters: `stop` (block or hold is right), `run`, or `any` (either is defensible). */
  actions: Record<string, { expect: ActionExpectation; why: string }>;
}

export interface Labels {
  sessions: Record<string, SessionLabel>;
}

export class LabelsError extends Error {}

const SEVERITIES = ['low', 'medium', 'high', 'critical'];
const KINDS = ['ordinary', 'troubled'];
const EXPECTATIONS: ActionExpectation[] = ['run', 'stop', 'any'];

const isMapping = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Reads a labels file (YAML or JSON): `sessions:` keyed by recording file name. Errors name the place. */
export function loadLabels(path: string): Labels {
  let document: unknown;
  try {
    document = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new LabelsError(`${path}: ${(error as Error).message}`);
  }
  return parseLabels(document, path);
}

export function parseLabels(document: unknown, where = 'labels'): Labels {
  if (!isMapping(document) || !isMapping(document['sessions'])) throw new LabelsError(`${where}: needs a "sessions" mapping keyed by recording file name`);
  const sessions: Record<string, SessionLabel> = {};
  for (const [file, raw] of Object.entries(document['sessions'])) {
    const at = `${where}: sessions.${file}`;
    if (!isMapping(raw)) throw new LabelsError(`${at} must be a mapping`);
    const kind = raw['kind'];
    if (typeof kind !== 'string' || !KINDS.includes(kind)) throw new LabelsError(`${at}.kind must be ${KINDS.join(' or ')}`);
    const expect = raw['expect'] ?? [];
    if (!Array.isArray(expect)) throw new LabelsError(`${at}.expect must be a list`);
    const findings = expect.map((f, i) => finding(f, `${at}.expect[${i}]`));
    const actions: SessionLabel['actions'] = {};
    const rawActions = raw['actions'] ?? {};
    if (!isMapping(rawActions)) throw new LabelsError(`${at}.actions must be a mapping of action ids`);
    for (const [id, value] of Object.entries(rawActions)) {
      if (!isMapping(value) || !EXPECTATIONS.includes(value['expect'] as ActionExpectation) || typeof value['why'] !== 'string' || !value['why'].trim()) {
        throw new LabelsError(`${at}.actions.${id} must be { expect: ${EXPECTATIONS.join(' | ')}, why: <reason> }`);
      }
      actions[id] = { expect: value['expect'] as ActionExpectation, why: value['why'] };
    }
    sessions[file] = {
      kind: kind as SessionLabel['kind'],
      expect: findings,
      actions,
      ...(typeof raw['note'] === 'string' ? { note: raw['note'] } : {}),
      ...(isMapping(raw['source']) ? { source: raw['source'] as SessionLabel['source'] } : {}),
    };
  }
  return { sessions };
}

function finding(raw: unknown, at: string): ExpectedFinding {
  if (!isMapping(raw)) throw new LabelsError(`${at} must be a mapping`);
  const named = ['pattern', 'breaker', 'rule', 'stop'].filter((k) => raw[k] !== undefined);
  if (named.length !== 1) throw new LabelsError(`${at} names exactly one of pattern, breaker, rule or stop`);
  if (typeof raw['why'] !== 'string' || !raw['why'].trim()) throw new LabelsError(`${at}.why says why a careful reader expects it`);
  if (raw['severity'] !== undefined && !SEVERITIES.includes(String(raw['severity']))) throw new LabelsError(`${at}.severity must be one of ${SEVERITIES.join(', ')}`);
  if (raw['actions'] !== undefined && (!Array.isArray(raw['actions']) || !raw['actions'].every((a) => typeof a === 'string'))) throw new LabelsError(`${at}.actions must be a list of action ids`);
  const text = (key: string) => (typeof raw[key] === 'string' ? { [key]: raw[key] as string } : {});
  return {
    ...text('pattern'),
    ...text('breaker'),
    ...text('rule'),
    ...(raw['stop'] === true ? { stop: true } : {}),
    ...text('severity'),
    ...(raw['actions'] ? { actions: raw['actions'] as string[] } : {}),
    why: raw['why'] as string,
    ...text('known_miss'),
    ...(raw['optional'] === true ? { optional: true } : {}),
  };
}

/** Several labels files as one; a session labelled twice is an error. */
export function mergeLabels(all: readonly Labels[]): Labels {
  const sessions: Record<string, SessionLabel> = {};
  for (const labels of all) {
    for (const [file, label] of Object.entries(labels.sessions)) {
      if (sessions[file]) throw new LabelsError(`${file} is labelled in more than one labels file`);
      sessions[file] = label;
    }
  }
  return { sessions };
}

export const severityRank = (severity: string) => SEVERITIES.indexOf(severity);
