import type { AgentAdapter } from '../agent-adapter.js';
import { antigravityAdapter } from './antigravity/antigravity-adapter.js';
import { claudeCodeAdapter } from './claude-code/claude-code-adapter.js';
import { codexAdapter } from './codex/codex-adapter.js';
import { copilotAdapter } from './copilot/copilot-adapter.js';
import { cursorAdapter } from './cursor/cursor-adapter.js';
import { factoryAdapter } from './factory/factory-adapter.js';
import { geminiAdapter } from './gemini/gemini-adapter.js';
import { openCodeAdapter } from './opencode/opencode-adapter.js';

/** Every agent Warden has an adapter for: adding an agent is its adapter module and one entry here. */
const ADAPTERS = [claudeCodeAdapter, codexAdapter, cursorAdapter, copilotAdapter, geminiAdapter, antigravityAdapter, factoryAdapter, openCodeAdapter] as const;

/** The agents Warden has an adapter for, by the name in `/hooks/<name>` and `warden hook install --agent <name>`. */
export type AgentName = (typeof ADAPTERS)[number]['name'];

/** The adapters by name. */
export const AGENT_ADAPTERS: ReadonlyMap<AgentName, AgentAdapter> = new Map(ADAPTERS.map((adapter) => [adapter.name, adapter]));

/** The adapter for an agent name, or undefined. */
export function agentAdapter(name: string): AgentAdapter | undefined {
  return AGENT_ADAPTERS.get(name as AgentName);
}
