import { join } from 'node:path';
import { HookInstallError, type AgentInstall } from '../agent-install.js';
import { OPENCODE_PLUGIN_MARK, openCodePlugin } from './opencode-plugin.js';

/** The plugin's file name in OpenCode's plugin directory. */
const PLUGIN_FILE = 'warden.js';

const notWardens = (path: string) => new HookInstallError(`${path} is not Warden's plugin (it does not start with "${OPENCODE_PLUGIN_MARK}"); move it away first, nothing was changed`);

/**
 * OpenCode 2.x has no command or HTTP hooks: Warden is an in-process plugin, which OpenCode loads from
 * `.opencode/plugins/` in the project or `~/.config/opencode/plugins/` for the user (OpenCode's migration
 * guide, https://opencode.ai/v2/docs/build/plugins/migrate-v1: "V2 discovers local plugins from both
 * .opencode/plugin/ and .opencode/plugins/"). The install writes the plugin there, with the gateway's URL
 * and the token file's path in it; the user's own plugins and opencode.json are not touched.
 */
export const openCodeInstall: AgentInstall = {
  agent: 'opencode',
  title: 'OpenCode',
  configFile: (place) =>
    place.scope === 'user' ? join(process.env.XDG_CONFIG_HOME || join(place.dir, '.config'), 'opencode', 'plugins', PLUGIN_FILE) : join(place.dir, '.opencode', 'plugins', PLUGIN_FILE),
  events: ['tool.execute.before', 'tool.execute.after', 'permission.evaluate', 'session.prompt', 'session.context', 'session.created', 'session.deleted'],
  blockingEvents: ['tool.execute.before'],
  plugin: true,
  merge(existing, targets, path) {
    if (existing !== undefined && !existing.startsWith(OPENCODE_PLUGIN_MARK)) throw notWardens(path);
    return openCodePlugin({ url: targets.url, tokenFile: targets.tokenFile });
  },
  remove(existing, path) {
    if (!existing.startsWith(OPENCODE_PLUGIN_MARK)) throw notWardens(path);
    return null;
  },
  notes: () => [
    'OpenCode loads plugins when it starts: restart it (`opencode plugin list` shows warden). The plugin is for OpenCode 2.x; 1.x does not load it.',
    'Approvals go to an operator at the gate (OpenCode does not tell a plugin whether someone answers its prompts; --auto approves them): install with --approvals terminal to have OpenCode ask you.',
  ],
};
