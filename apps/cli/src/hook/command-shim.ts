import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** How long the shim waits for the gateway: under the hook timeouts `warden hook install` writes (60 s), above the gateway's own deadline (45 s). */
export const SHIM_MAX_SECONDS = 55;

export interface CommandShim {
  /** The agent's name in the gateway's path (`/hooks/<agent>`). */
  agent: string;
  title: string;
  /** The gateway's base URL. */
  gatewayUrl: string;
  /** Where the agent's token is kept (mode 600), read at each call. */
  tokenFile: string;
  /** The answer settings `warden hook install` was given (`decide=true&approvals=operator`), for the gateway's query. */
  query?: string;
  /**
   * The events that hold a tool call: when Warden cannot be reached (or refuses the request) these exit 2
   * with the reason on stderr, which blocks the call in every agent the shim serves; the others exit 0.
   */
  blockingEvents: readonly string[];
  /**
   * For agents that block a call by their answer rather than by exit 2 (Antigravity: a non-zero exit is not
   * documented as a block): the answer printed, exit 0, when a call is blocked, given the reason.
   */
  blockedOutput?: (reason: string) => Record<string, unknown>;
}

const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Where the reason goes in an agent's blocked answer (blockedOutput). */
const REASON_MARK = 'WARDEN_BLOCKED_REASON';

/** The shell lines that print an agent's blocked answer with the reason in $1 (JSON-escaped), or none. */
function blockedAnswerLines(shim: CommandShim): string {
  if (!shim.blockedOutput) return '';
  const [before, after] = JSON.stringify(shim.blockedOutput(REASON_MARK)).split(REASON_MARK);
  return `    printf '%s%s%s\\n' ${quoted(before ?? '')} "$(json_text "$reason")" ${quoted(after ?? '')}
    echo "$reason" >&2
    exit 0
`;
}

/**
 * The command an agent without HTTP hooks runs for each event: a POSIX shell script that posts the hook's
 * input (stdin) to Warden's gateway with the agent's token and the installed answer settings, and prints
 * the answer. It starts a shell and curl, nothing else (no Node): a tool call pays for little more than
 * the gateway's answer. The event is its first argument (some agents' payloads do not name it).
 */
export function shimScript(shim: CommandShim): string {
  const blocked = blockedAnswerLines(shim);
  return `#!/bin/sh
# Warden's hook for ${shim.title}, written by \`warden hook install --agent ${shim.agent}\`: posts the hook's
# input to Warden's agent gateway and prints Warden's answer. When Warden cannot be reached or refuses
# the request, a call that can be held (${shim.blockingEvents.join(', ')}) is blocked: ${shim.blockedOutput ? `${shim.title}'s deny answer, the reason also on stderr` : 'exit 2, the reason on stderr'}.
event="$1"
url=${quoted(`${shim.gatewayUrl.replace(/\/+$/, '')}/hooks/${shim.agent}`)}
query=${quoted(shim.query ?? '')}
token_file=${quoted(shim.tokenFile)}
${shim.blockedOutput ? `# A JSON string's text: backslashes and quotes escaped, control characters dropped.
json_text() {
  printf '%s' "$1" | tr '\\n\\r\\t' '   ' | tr -d '\\000-\\037' | sed 's/\\\\/\\\\\\\\/g; s/"/\\\\"/g'
}
` : ''}fail() {
  case "$event" in
    ${shim.blockingEvents.join('|')})
    reason="Warden could not decide on this call, so it is blocked (fail closed): $1"
${blocked || `    echo "$reason" >&2
    exit 2
`}    ;;
  esac
  echo "Warden: $1" >&2
  exit 0
}
token=$(cat "$token_file" 2>/dev/null) || fail "cannot read the agent token $token_file (warden hook install writes it)"
answer=$(curl -sS --max-time ${SHIM_MAX_SECONDS} --fail-with-body -H "Authorization: Bearer $token" -H 'Content-Type: application/json' --data-binary @- "$url?\${query:+$query&}event=$event" 2>&1) || fail "Warden's gateway at $url did not answer ($answer)"
# Nothing to say is no output at all (a lone newline is not empty to every agent).
if [ -n "$answer" ]; then printf '%s\\n' "$answer"; fi
exit 0
`;
}

/** Writes the shim (executable) and the token beside it (mode 600); returns the shim's path. */
export function writeShim(dir: string, shim: CommandShim, token: string | undefined): string {
  const path = join(dir, `${shim.agent}.sh`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, shimScript(shim), { mode: 0o755 });
  chmodSync(path, 0o755);
  writeToken(shim.tokenFile, token);
  return path;
}

/** Writes the agent's token (mode 600), when there is one. */
export function writeToken(tokenFile: string, token: string | undefined): void {
  if (token === undefined) return;
  mkdirSync(dirname(tokenFile), { recursive: true });
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
}
