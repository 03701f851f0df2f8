import type { AgentName } from '@warden/agent-edge';
import type { AgentInstall } from '../agent-install.js';
import { antigravityInstall } from './antigravity-install.js';
import { codexInstall } from './codex-install.js';
import { copilotInstall } from './copilot-install.js';
import { cursorInstall } from './cursor-install.js';
import { factoryInstall } from './factory-install.js';
import { geminiInstall } from './gemini-install.js';
import { openCodeInstall } from './opencode-install.js';

/**
 * How `warden hook install --agent <name>` writes each agent's hook configuration (Claude Code's, with
 * its HTTP hooks and command transport, is hook-install.ts). Adding an agent: one module here, beside its
 * adapter in @warden/agent-edge.
 */
export const AGENT_INSTALLS: ReadonlyMap<AgentName, AgentInstall> = new Map([codexInstall, antigravityInstall, cursorInstall, copilotInstall, geminiInstall, factoryInstall, openCodeInstall].map((install) => [install.agent, install]));
