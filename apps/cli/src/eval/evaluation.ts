import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { looksLikeAiderHistory } from '../replay/formats/aider-chat-history.js';
import { looksLikeCopilotShare } from '../replay/formats/copilot-cli-share.js';
import { looksLikeCursorText } from '../replay/formats/cursor-transcript.js';
import { looksLikeSpecStory } from '../replay/formats/specstory-markdown.js';
import { readRecording } from '../replay/read-recording.js';
import type { EmbeddedLabel } from '../replay/formats/labelled-session.js';
import type { RecordedSession, RecordingFormat, SkippedLine } from '../replay/recorded-session.js';
import { InProcessWarden, type JudgedSession, type WardenSettings } from './in-process-warden.js';
import type { Labels, SessionLabel } from './labels.js';
import { scoreSession, scoreSources, type SessionScore, type SourceScore } from './scoring.js';

export interface EvaluatedSession {
  file: string;
  /** The name the labels know it by: the file's base name. */
  name: string;
  format: RecordingFormat;
  judged: JudgedSession;
  score: SessionScore;
  label?: SessionLabel;
  /** Damaged lines of the recording the reader skipped. */
  skippedLines?: SkippedLine[];
  /** What the reader could not read, or read in a way worth knowing. */
  notes?: string[];
  /** Why the session holds no action, when it holds none. */
  empty?: string;
}

export interface EvaluationSummary {
  sessions: number;
  ordinary: number;
  troubled: number;
  unlabelled: number;
  /** Actions of the ordinary sessions, and how many Warden blocked, held or never let run. */
  ordinaryActions: number;
  ordinaryStopped: number;
  /** Of those, the ones the labels justify. */
  ordinaryStoppedJustified: number;
  ordinaryEmergencyStops: number;
  ordinaryBreakerTrips: number;
  ordinaryPatternsAboveLow: number;
  expected: number;
  expectedFound: number;
  falseAlarms: number;
  misses: number;
  /** Misses the labels record as known gaps. */
  knownMisses: number;
  /** Damaged lines skipped over all recordings. */
  skippedLines: number;
}

export interface EvaluationResult {
  sessions: EvaluatedSession[];
  sources: SourceScore[];
  summary: EvaluationSummary;
  /** Recordings that could not be read. */
  errors: { file: string; message: string }[];
}

export interface EvaluationOptions {
  files: readonly string[];
  labels?: Labels;
  settings: WardenSettings;
  approvals?: 'approve' | 'reject';
  /** Judge only the recordings the labels name (a corpus folder holds both parts of a split, each with its labels). */
  labelledOnly?: boolean;
  onProgress?(done: number, total: number, label: string): void;
}

/** The first 64 KB of a file, as text. */
function headOf(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64 * 1024);
    return head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * A directory's recordings: its `*.jsonl`, `*.json` and `*.traj` files, the Aider chat histories and Copilot CLI
 * exports among its `*.md` files and the Cursor text transcripts among its `*.txt` files (a folder's other Markdown and text are no recordings), sorted.
 */
function recordingsOfDirectory(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && (/\.(jsonl|traj|json)$/.test(f) || (f.endsWith('.md') && (looksLikeAiderHistory(headOf(f)) || looksLikeCopilotShare(headOf(f)) || looksLikeSpecStory(headOf(f)))) || (f.endsWith('.txt') && looksLikeCursorText(headOf(f)))));
}

/**
 * The recordings named: files as they are; a directory for its recordings and those of its folders one
 * level down (a corpus kept in a folder per agent, e.g. codex/, gemini-cli/), in name order.
 */
export function recordingsIn(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    if (!statSync(path).isDirectory()) {
      files.push(path);
      continue;
    }
    files.push(...recordingsOfDirectory(path));
    for (const sub of readdirSync(path).sort()) {
      const dir = join(path, sub);
      if (statSync(dir).isDirectory() && !sub.startsWith('.')) files.push(...recordingsOfDirectory(dir));
    }
  }
  return files;
}

/**
 * Judges every recording in process with the given settings and holds the result against the labels:
 * per session what Warden stopped, reported and tripped, the false alarms and misses with their evidence,
 * and per rule, validator, detector and breaker its precision and recall.
 */
export function evaluate(options: EvaluationOptions): EvaluationResult {
  const warden = new InProcessWarden(options.settings);
  const sessions: EvaluatedSession[] = [];
  const errors: EvaluationResult['errors'] = [];
  const files = options.labelledOnly ? options.files.filter((f) => options.labels?.sessions[basename(f)]) : options.files;
  files.forEach((file, i) => {
    const name = basename(file);
    options.onProgress?.(i, files.length, name);
    let recording;
    try {
      recording = readRecording(file);
    } catch (error) {
      errors.push({ file, message: (error as Error).message });
      return;
    }
    const stem = name.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 60);
    const judged = warden.judge(recording, { agentId: 'warden-eval', sessionId: `eval-${stem}`, approvals: options.approvals ?? 'approve' });
    const label = combined(embeddedLabel(recording), options.labels?.sessions[name]);
    sessions.push({
      file,
      name,
      format: recording.format,
      judged,
      score: scoreSession(name, judged, label),
      ...(label ? { label } : {}),
      ...(recording.skippedLines?.length ? { skippedLines: recording.skippedLines } : {}),
      ...(recording.notes?.length ? { notes: recording.notes } : {}),
      ...(recording.empty ? { empty: recording.empty } : {}),
    });
  });
  options.onProgress?.(files.length, files.length, 'done');
  return { sessions, sources: scoreSources(sessions.map((s) => ({ session: s.judged, score: s.score, label: s.label }))), summary: summarize(sessions), errors };
}

/** A labelled session carries its own labels: the patterns it should produce (none: an ordinary session). */
function embeddedLabel(recording: RecordedSession): SessionLabel | undefined {
  if (!('label' in recording)) return undefined;
  const { expected_patterns } = (recording as RecordedSession & { label: EmbeddedLabel }).label;
  return {
    kind: expected_patterns.length ? 'troubled' : 'ordinary',
    expect: expected_patterns.map((p) => ({ pattern: p.type, severity: p.min_severity, why: 'the labelled session says so' })),
    actions: {},
  };
}

/**
 * A labelled session's own labels with what a labels file adds: its kind and actions win, and a pattern
 * it names replaces the session's own expectation of that pattern (the whole suite may stop a session
 * before a detector alone would have seen it all).
 */
function combined(embedded: SessionLabel | undefined, file: SessionLabel | undefined): SessionLabel | undefined {
  if (!embedded || !file) return file ?? embedded;
  const replaced = new Set(file.expect.map((f) => f.pattern).filter(Boolean));
  return { ...file, expect: [...embedded.expect.filter((f) => !replaced.has(f.pattern)), ...file.expect], actions: { ...embedded.actions, ...file.actions } };
}

function summarize(sessions: readonly EvaluatedSession[]): EvaluationSummary {
  const ordinary = sessions.filter((s) => s.score.kind === 'ordinary').map((s) => s.score);
  const all = sessions.map((s) => s.score);
  const sum = (scores: readonly SessionScore[], f: (s: SessionScore) => number) => scores.reduce((n, s) => n + f(s), 0);
  return {
    sessions: sessions.length,
    ordinary: ordinary.length,
    troubled: all.filter((s) => s.kind === 'troubled').length,
    unlabelled: all.filter((s) => s.kind === 'unlabelled').length,
    ordinaryActions: sum(ordinary, (s) => s.actions),
    ordinaryStopped: sum(ordinary, (s) => s.stopped),
    ordinaryStoppedJustified: sum(ordinary, (s) => s.stoppedJustified),
    ordinaryEmergencyStops: sum(ordinary, (s) => (s.emergencyStop ? 1 : 0)),
    ordinaryBreakerTrips: sum(ordinary, (s) => s.breakerTrips),
    ordinaryPatternsAboveLow: sum(ordinary, (s) => s.patternsAboveLow),
    expected: sum(all, (s) => s.expected.length),
    expectedFound: sum(all, (s) => s.expected.filter((e) => e.found).length),
    falseAlarms: sum(all, (s) => s.falseAlarms.length),
    misses: sum(all, (s) => s.misses.length),
    knownMisses: sum(all, (s) => s.misses.filter((m) => m.known).length),
    skippedLines: sessions.reduce((n, s) => n + (s.skippedLines?.length ?? 0), 0),
  };
}

/** Whether the evaluation passes: no false alarm, no miss the labels do not record as known, every file read. */
export function passed(result: EvaluationResult): boolean {
  return !result.errors.length && result.summary.falseAlarms === 0 && result.summary.misses === result.summary.knownMisses;
}
