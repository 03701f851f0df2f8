/** The first line of Warden's plugin: what tells it from a plugin of the user's at the same path. */
export const OPENCODE_PLUGIN_MARK = "// Warden's plugin for OpenCode 2.x (@warden/opencode-plugin)";

/** How long the plugin waits for the gateway: above the gateway's own deadline (45 s), so that Warden says what happened. */
export const PLUGIN_TIMEOUT_MS = 55_000;

export interface OpenCodePluginSettings {
  /** The agent's endpoint on the gateway, with the answer settings as its query. */
  url: string;
  /** Where the agent's token is kept (mode 600), read at each call. */
  tokenFile: string;
}

/**
 * Warden's plugin for OpenCode 2.x: one ES module, no dependencies, that OpenCode loads from its plugin
 * directory. A 2.x plugin default-exports `{id, setup(ctx)}` (anomalyco/opencode packages/plugin/src/promise/
 * plugin.ts: `Plugin.define` returns its argument, so the module needs no import of OpenCode's own), and
 * `setup` registers hooks on the context's domains (promise/tool.ts `ToolHooks`, promise/session.ts
 * `SessionHooks`, the permission domain's `evaluate`, and `event.subscribe()`). What it posts and what it does
 * with the answer is the adapter's wire shape (libs/agent-edge/src/agents/opencode/opencode-adapter.ts,
 * `OpenCodeHookCall` and `OpenCodeAnswer`).
 */
export function openCodePlugin(settings: OpenCodePluginSettings): string {
  const config = JSON.stringify({ url: settings.url, tokenFile: settings.tokenFile, timeoutMs: PLUGIN_TIMEOUT_MS });
  return `${OPENCODE_PLUGIN_MARK}, written by \`warden hook install --agent opencode\`.
// Every tool call of this project's OpenCode sessions is proposed to Warden's agent gateway before it runs
// and reported after it ran: Warden's answer blocks it, changes it, or has OpenCode ask the user for it. When
// Warden cannot be reached, a tool call is blocked (fail closed). \`warden hook uninstall --agent opencode\`
// removes it; the next install overwrites changes made here.
import { readFileSync } from 'node:fs';

const WARDEN = ${config};
/** How many call ids the plugin remembers between two hooks of a call. */
const KEPT = 1000;

function keepBounded(collection, key, value) {
  if (collection instanceof Map) collection.set(key, value);
  else collection.add(key);
  if (collection.size > KEPT) collection.delete(collection.keys().next().value);
}

const messageOf = (error) => (error && typeof error.message === 'string' ? error.message : String(error));

/** Posts one hook to the gateway: Warden's answer, or null when it has nothing to say; throws when Warden cannot be reached. */
async function post(hook, directory, event) {
  const token = readFileSync(WARDEN.tokenFile, 'utf8').trim();
  const response = await fetch(WARDEN.url, {
    method: 'POST',
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
    body: JSON.stringify({ hook: hook, directory: directory, event: event }),
    signal: AbortSignal.timeout(WARDEN.timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new Error("Warden's gateway at " + WARDEN.url.split('?')[0] + ' answered ' + response.status + ' (' + text + ')');
  return text ? JSON.parse(text) : null;
}

/** A tool call as OpenCode passes it to execute.before and execute.after. */
function callOf(event) {
  return { tool: event.tool, sessionID: event.sessionID, agent: event.agent, messageID: event.messageID, id: event.id, input: event.input };
}

/** What a call came to: the text blocks the model reads (bounded), or the error's message. */
function resultOf(event) {
  if (event.status === 'error') return { status: 'error', error: messageOf(event.error) };
  const result = event.result || {};
  if (Array.isArray(result.content)) {
    return { status: 'completed', result: { content: result.content.map((block) => (block && typeof block.text === 'string' ? { type: block.type, text: block.text.slice(0, 16000) } : { type: block && block.type })) } };
  }
  return { status: 'completed', result: typeof result.output === 'string' ? { output: result.output.slice(0, 16000) } : {} };
}

/** The call runs Warden's changed input: the input's fields replaced in place (and the hook's input, should OpenCode hand out a frozen one). */
function replaceInput(event, changed) {
  try {
    for (const key of Object.keys(event.input)) delete event.input[key];
    Object.assign(event.input, changed);
  } catch {
    event.input = Object.assign({}, changed);
  }
}

export default {
  id: 'warden',
  async setup(ctx) {
    // A context without tool hooks (OpenCode's TUI process, a 1.x host's registration pass) has nothing to supervise.
    if (!ctx || !ctx.tool || typeof ctx.tool.hook !== 'function') return;
    const directory = (ctx.location && ctx.location.directory) || process.cwd();
    const canAsk = !!ctx.permission && typeof ctx.permission.hook === 'function';
    /** Call id → the effect Warden gives OpenCode's permission evaluation of the call. */
    const effects = new Map();
    /** Calls OpenCode evaluated before Warden answered: too late to ask about them. */
    const evaluated = new Set();
    /** Session id → Warden's texts for the session's next model request. */
    const texts = new Map();
    const registrations = [];
    const keepTexts = (sessionID, context) => {
      if (Array.isArray(context) && context.length) texts.set(sessionID, (texts.get(sessionID) || []).concat(context));
    };
    // What already happened cannot be held: an outcome or a prompt Warden could not take is not recorded.
    const report = async (hook, event) => {
      try {
        const answer = await post(hook, directory, event);
        if (answer) keepTexts(event.sessionID, answer.context);
      } catch {}
    };

    registrations.push(
      await ctx.tool.hook('execute.before', async (event) => {
        let answer;
        try {
          answer = await post('tool.execute.before', directory, callOf(event));
        } catch (error) {
          throw new Error('Warden could not decide on this tool call, so it is blocked (fail closed): ' + messageOf(error));
        }
        if (!answer) return;
        keepTexts(event.sessionID, answer.context);
        switch (answer.decision) {
          case 'deny':
            throw new Error(answer.reason);
          case 'rewrite':
            replaceInput(event, answer.input);
            return;
          case 'ask':
            // OpenCode asks in its permission evaluation of the call, which must come after this answer.
            if (!canAsk || evaluated.has(event.id)) throw new Error('Warden needs a person to approve this action, and OpenCode could not be made to ask for it: ' + answer.reason);
            if (answer.input) replaceInput(event, answer.input);
            keepBounded(effects, event.id, { effect: 'ask', message: answer.reason });
            return;
          case 'allow':
            keepBounded(effects, event.id, { effect: 'allow', message: answer.reason });
            return;
        }
      }),
    );
    registrations.push(
      await ctx.tool.hook('execute.after', async (event) => {
        effects.delete(event.id);
        await report('tool.execute.after', Object.assign(callOf(event), resultOf(event)));
      }),
    );
    if (canAsk) {
      registrations.push(
        await ctx.permission.hook('evaluate', (evaluation) => {
          const source = evaluation.source;
          if (!source || source.type !== 'tool' || typeof source.id !== 'string') return;
          const effect = effects.get(source.id);
          if (!effect) {
            keepBounded(evaluated, source.id);
            return;
          }
          // The user's own deny rule stays a deny.
          if (evaluation.effect === 'deny') return;
          evaluation.effect = effect.effect;
          evaluation.message = effect.message;
        }),
      );
    }
    if (ctx.session && typeof ctx.session.hook === 'function') {
      registrations.push(
        await ctx.session.hook('prompt', (event) =>
          report('session.prompt', { sessionID: event.sessionID, messageID: event.messageID, prompt: { text: event.prompt && typeof event.prompt.text === 'string' ? event.prompt.text : '' } }),
        ),
      );
      registrations.push(
        await ctx.session.hook('context', (event) => {
          const pending = texts.get(event.sessionID);
          if (!pending || !Array.isArray(event.system)) return;
          texts.delete(event.sessionID);
          event.system.push({ type: 'text', text: pending.join('\\n') });
        }),
      );
    }
    const subscription = new AbortController();
    if (ctx.event && typeof ctx.event.subscribe === 'function') {
      (async () => {
        for await (const event of ctx.event.subscribe({ signal: subscription.signal })) {
          if (!event || (event.type !== 'session.created' && event.type !== 'session.deleted')) continue;
          const data = event.data || event.properties || {};
          const info = data.info || {};
          const sessionID = data.sessionID || info.id || data.id;
          const parentID = data.parentID || info.parentID;
          if (typeof sessionID === 'string') await report(event.type, Object.assign({ sessionID: sessionID }, typeof parentID === 'string' ? { parentID: parentID } : {}));
        }
      })().catch(() => {});
    }
    return async () => {
      subscription.abort();
      for (const registration of registrations) if (registration && typeof registration.dispose === 'function') await registration.dispose();
    };
  },
};
`;
}
