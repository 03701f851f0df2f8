import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { FORMATS } from '../replay/read-recording.js';

/** The recorded sessions that ship with Warden (written for the project): Warden JSONL, a Claude Code transcript, a SWE-agent trajectory. */
export const SAMPLE_SESSIONS_DIR = join(WORKSPACE_ROOT, 'examples', 'sessions');

const RECORDING = /\.(jsonl|traj)$/;

/** The recordings in a directory, in name order. */
export function sampleSessions(dir = SAMPLE_SESSIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => RECORDING.test(name))
    .sort()
    .map((name) => join(dir, name));
}

export { FORMATS };
