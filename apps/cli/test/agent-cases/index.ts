import type { AgentCase } from './agent-case.js';
import { antigravity } from './antigravity.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { factory } from './factory.js';
import { gemini } from './gemini.js';

export { DEADLINE_MS, TEXTS, type AgentCase, type Decided } from './agent-case.js';

/** Every agent served by the command shim, as agent-hooks.spec drives it (one module per agent). */
export const AGENT_CASES: readonly AgentCase[] = [codex, cursor, copilot, gemini, antigravity, factory];
