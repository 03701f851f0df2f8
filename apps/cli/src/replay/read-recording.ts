import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { looksLikeClaudeCodeTranscript, parseClaudeCodeTranscript } from './formats/claude-code-transcript.js';
import { looksLikeLabelledSession, parseLabelledSession } from './formats/labelled-session.js';
import { parseSweAgentTrajectory } from './formats/swe-agent-traj.js';
import { parseWardenJsonl } from './formats/warden-jsonl.js';
import { RecordingError, type RecordedSession, type RecordingFormat } from './recorded-session.js';

export const FORMATS: RecordingFormat[] = ['warden', 'claude-code', 'swe-agent', 'labelled'];

/** Which format a recording is in: `.traj` (or a JSON object with `trajectory`) is SWE-agent, JSONL is Warden's or Claude Code's. */
export function detectFormat(path: string, text: string): RecordingFormat {
  if (path.endsWith('.traj')) return 'swe-agent';
  const trimmed = text.trimStart();
  const firstLine = trimmed.split('\n').find((line) => line.trim() && !line.trim().startsWith('//')) ?? '';
  let first: unknown;
  try {
    first = JSON.parse(firstLine);
  } catch {
    // A pretty-printed JSON document spans lines.
    try {
      first = JSON.parse(trimmed);
    } catch {
      throw new RecordingError('neither JSON Lines nor a JSON document');
    }
  }
  if (first && typeof first === 'object' && 'trajectory' in first) return 'swe-agent';
  if (looksLikeLabelledSession(first)) return 'labelled';
  if (first && typeof first === 'object' && looksLikeClaudeCodeTranscript(first as Record<string, unknown>)) return 'claude-code';
  return 'warden';
}

/** Reads and parses a recording; `format` overrides detection. Errors name the file and the line. */
export function readRecording(path: string, format?: RecordingFormat): RecordedSession {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RecordingError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const chosen = format ?? detectFormat(path, text);
    if (chosen === 'swe-agent') return parseSweAgentTrajectory(text, basename(path).replace(/\.traj$/, ''));
    if (chosen === 'claude-code') return parseClaudeCodeTranscript(text);
    if (chosen === 'labelled') return parseLabelledSession(text);
    return parseWardenJsonl(text);
  } catch (error) {
    if (error instanceof RecordingError) throw new RecordingError(`${path}: ${error.message}`);
    throw error;
  }
}
