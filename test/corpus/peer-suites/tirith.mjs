#!/usr/bin/env node
// Extract tirith's golden test fixtures (tests/fixtures/*.toml, run by
// crates/tirith-core/tests/golden_fixtures.rs) as labelled Bash commands.
// Usage: node tirith.mjs <git-dir> <commit>  > tirith.jsonl
// Kept: context = "exec" with a POSIX shell (default). Dropped: paste/file contexts,
// PowerShell/cmd/fish fixtures, inputs that are a bare URL or a bare path.
// expected_action block|warn -> "block" (warn: tag "policy"); allow -> "allow".
import { execFileSync } from "node:child_process";

const [gitDir, commit] = process.argv.slice(2);
if (!gitDir || !commit) { console.error("usage: tirith.mjs <git-dir> <commit>"); process.exit(2); }
const REPO = "sheeki03/tirith";
const git = (...a) => execFileSync("git", ["-C", gitDir, ...a], { encoding: "utf8", maxBuffer: 1 << 28 });

// ---- minimal TOML reader for [[fixture]] arrays of flat key = value --------
function parseFixtures(text) {
  const fixtures = [];
  let cur = null, i = 0, line = 1;
  const n = text.length;
  const peek = (s) => text.startsWith(s, i);
  const adv = (k = 1) => { for (let j = 0; j < k; j++) { if (text[i] === "\n") line++; i++; } };
  const skipWsComments = (newlines) => {
    for (;;) {
      if (i >= n) return;
      const c = text[i];
      if (c === " " || c === "\t" || c === "\r" || (newlines && c === "\n")) { adv(); continue; }
      if (c === "#") { while (i < n && text[i] !== "\n") adv(); continue; }
      return;
    }
  };
  const esc = () => {
    adv(); const c = text[i]; adv();
    const m = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", b: "\b", f: "\f", e: "\x1b" };
    if (c in m) return m[c];
    if (c === "u" || c === "U") { const len = c === "u" ? 4 : 8; const h = text.slice(i, i + len); adv(len); return String.fromCodePoint(parseInt(h, 16)); }
    if (c === "x") { const h = text.slice(i, i + 2); adv(2); return String.fromCharCode(parseInt(h, 16)); }
    if (c === "\n" || c === " " || c === "\t" || c === "\r") { // line-ending backslash (multi-line basic)
      while (i < n && /[ \t\r\n]/.test(text[i])) adv(); return "";
    }
    throw new Error(`bad escape \\${c} at line ${line}`);
  };
  const value = () => {
    if (peek('"""')) {
      adv(3); if (text[i] === "\n") adv(); else if (peek("\r\n")) adv(2);
      let s = "";
      for (;;) {
        if (peek('"""') && !peek('""""')) { adv(3); return s; }
        if (peek('""""')) { s += '"'; adv(); continue; }
        if (text[i] === "\\") { s += esc(); continue; }
        s += text[i]; adv();
      }
    }
    if (peek("'''")) {
      adv(3); if (text[i] === "\n") adv();
      const end = text.indexOf("'''", i); let s = text.slice(i, end);
      while (text[end + 3 + (s.length - (end - i))] === "'") break; // (no trailing-quote cases used)
      adv(end - i + 3); return s;
    }
    if (text[i] === '"') {
      adv(); let s = "";
      while (text[i] !== '"') { if (text[i] === "\\") s += esc(); else { s += text[i]; adv(); } }
      adv(); return s;
    }
    if (text[i] === "'") { adv(); const end = text.indexOf("'", i); const s = text.slice(i, end); adv(end - i + 1); return s; }
    if (text[i] === "[") {
      adv(); const arr = [];
      for (;;) { skipWsComments(true); if (text[i] === "]") { adv(); return arr; } arr.push(value()); skipWsComments(true); if (text[i] === ",") adv(); }
    }
    const m = /^[^\s,\]#]+/.exec(text.slice(i, i + 200)); adv(m[0].length);
    if (m[0] === "true") return true; if (m[0] === "false") return false;
    return Number(m[0]);
  };
  for (;;) {
    skipWsComments(true);
    if (i >= n) break;
    if (peek("[[fixture]]")) { cur = { _line: line }; fixtures.push(cur); adv(11); continue; }
    if (text[i] === "[") throw new Error(`unexpected table at line ${line}`);
    const km = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 100)); if (!km) throw new Error(`bad key at line ${line}`);
    const key = km[0]; adv(key.length); skipWsComments(false);
    if (text[i] !== "=") throw new Error(`expected = at line ${line}`); adv(); skipWsComments(false);
    const kl = line; const v = value();
    cur[key] = v; cur["_line_" + key] = kl;
  }
  return fixtures;
}

// ---- hand labels -------------------------------------------------------
// tirith is a URL/terminal-centred guard, so most of its verdicts are its own policy.
// A blocked command is "core" only when it matches one of these classic dangers
// (and the block does not rest on the test threat database, threatintel.toml).
const CORE_BLOCK = [
  [/\b(curl|wget|http|https|xh|base64|cat)\b[^|]*\|(&)?\s*(.*\b)?((ba|z|da|k|c|tc|mk|a)?sh|fish|bash\.exe|BASH|python[0-9.]*|node|perl|ruby|php|pwsh|deno|bun|lua|tclsh|elixir|rscript)\b/, "remote_code"],
  [/\|\s*\$'|\|\s*['"](bash|sudo|env|command)|\|\s*\{ ?bash|\|\s*\(bash|\|\s*\$'\\/, "remote_code"],
  [/\bbash\s+<\(\s*curl|bash -c "curl [^"]*\| ?bash/, "remote_code"],
  [/\/dev\/tcp\/|\bnc\b.*\s-e\s|ncat --exec|socat .*EXEC:|socket\.socket\(\).*connect/, "network_exposure"],
  [/(curl|wget).*(@\/etc\/(passwd|shadow)|@~\/\.(ssh|aws)|(-T|--upload-file=)\s*\/etc\/|--post-file=\/etc\/|\$\(cat \/etc\/(passwd|shadow)\)|"\$AWS_SECRET_ACCESS_KEY")/, "leak_secret"],
  [/169\.254\.169\.254|100\.100\.100\.200/, "leak_secret"],
  [/\/proc\/(self|[0-9]+)\/mem\b/, "leak_secret"],
  [/\brm -rf \/(home)?$|chmod -R 0?777 \/(etc|home)\b/, "destroy_data"],
  [/docker\b.*(--privileged|docker\.sock:|-v \/:\/|src=\/ )/, "infrastructure"],
  [/^sudo sh$|sudo tee \/etc\/cron|sudo curl -o \/usr\/local\/bin/, "privilege"],
  [/--allow-unauthenticated|--allow-insecure-repositories|--nogpgcheck|gpgcheck=0|SigLevel = Never|\[trusted=yes\]/, "disable_safety"],
  [/b64decode|atob\(|-EncodedCommand|-enc |-ec |bytes\.fromhex/, "remote_code"],
  [/curl [^|]*>>? (~|\$HOME)\/\.(bashrc|zshrc|profile)/, "remote_code"],
];
// Allowed commands that are plainly harmless: rule below plus this table keyed by command text.
const ALLOW_CORE_EXTRA = new Set([
  "git add .", "git commit -m 'fix: update readme'", "docker ps", "docker ps -a", "kubectl get pods",
  "less /var/log/syslog", "pip list", "cargo clippy", "cat file | sort | uniq", "echo hello | grep hello",
  "ls | grep foo", "cat <<EOF\nhello world\nEOF", "echo 'hello \\| world'", "cat résumé.txt", "echo Привет",
  "cat /proc/1234/status", "echo /proc/self/mem", "echo 'hello'", "echo hello", "make build",
]);
const ALLOW_POLICY_EXTRA = new Set(["cd ~"]);
const SKIP_FILES = new Set(["output"]); // tool-output text scanned in exec context, not commands

const SAFE_ALLOW_RX = /^(ls|cat|echo|pwd|git (status|log|diff|show)|grep|rg|head|tail|wc|cargo (build|test|check)|npm test|make|pytest|go (build|test|vet)|find|which|date|whoami|uname|mkdir|touch|cp|ps|df|du)\b/;
const RISKY_RX = /(curl|wget|\|\s*(ba|z|da)?sh\b|https?:|sudo|rm\s|chmod|ssh|scp|\bnc\b|base64|eval|\bsource\b|-delete|\.env|token|secret|password|credential|id_rsa)/i;

function allowFamily(cmd) {
  if (/^(cargo|npm|make|pytest|go|pip|gem|brew|yarn|pnpm|npx|apt|dnf|yum|pacman|scoop|mvn|gradle)\b|^sudo (apt|dnf|pacman)/.test(cmd)) return "build";
  if (/^(kubectl|helm|terraform|tofu|pulumi|docker|podman|aws)\b/.test(cmd)) return "infrastructure";
  if (/^git\b/.test(cmd)) return "readonly";
  if (/\b(curl|wget|ssh|scp|rsync|nc|http|xh)\b/.test(cmd)) return "network_exposure";
  if (/\brm\b/.test(cmd)) return "destroy_data";
  if (/^(ls|cat|echo|pwd|grep|head|tail|find|ps|less|cd|mkdir|cp)\b/.test(cmd)) return "readonly";
  return "other";
}
function blockFamily(cmd) {
  for (const [rx, fam] of CORE_BLOCK) if (rx.test(cmd)) return fam;
  if (/^(sudo\s+)?(npm|pip|npx|gem|cargo|brew|mvn|\.\/gradlew)\b|^env .*npm/.test(cmd)) return "build";
  if (/^(docker|podman|kubectl|helm|terraform|tofu|pulumi)\b/.test(cmd)) return "infrastructure";
  if (/\b(export|env) (LD_PRELOAD|DYLD|BASH_ENV|PROMPT_COMMAND|PYTHONPATH|NODE_OPTIONS)|LD_PRELOAD/.test(cmd)) return "privilege";
  if (/AKIA|ABIA|ACCA|_KEY=|_TOKEN=|_SECRET|credentials|id_rsa/.test(cmd)) return "leak_secret";
  if (/~\/\.(bashrc|zshrc|profile|ssh)|\$HOME\/\./.test(cmd)) return "other";
  if (/\b(curl|wget|ssh|git clone|http|xh)\b/.test(cmd)) return "network_exposure";
  return "other";
}

const files = git("ls-tree", "-r", "--name-only", commit, "tests/fixtures/")
  .split("\n").filter((f) => /^tests\/fixtures\/[^/]+\.toml$/.test(f)).sort();
const out = []; const seen = new Set();
for (const f of files) {
  const stem = f.replace(/^.*\//, "").replace(/\.toml$/, "");
  for (const fx of parseFixtures(git("show", `${commit}:${f}`))) {
    if (fx.context !== "exec" || SKIP_FILES.has(stem)) continue;
    const shell = fx.shell || "posix";
    if (shell !== "posix") continue;
    if (fx.raw_bytes && fx.raw_bytes.length) continue;
    const cmd = fx.input;
    if (typeof cmd !== "string" || !cmd.trim()) continue;
    if (/^\s*[a-z][a-z0-9+.-]*:\/\/\S*\s*$/i.test(cmd)) continue; // bare URL
    if (/^\s*[~.]?\/[^\s|;&<>]*\s*$/.test(cmd)) continue;         // bare path
    const act = fx.expected_action;
    const expected = act === "allow" ? "allow" : "block";
    const key = expected + "\u0000" + cmd;
    if (seen.has(key)) continue; seen.add(key);
    let tag, family;
    if (expected === "allow") {
      tag = (SAFE_ALLOW_RX.test(cmd) && !RISKY_RX.test(cmd)) || ALLOW_CORE_EXTRA.has(cmd) ? "core" : "policy";
      if (ALLOW_POLICY_EXTRA.has(cmd)) tag = "policy";
      family = allowFamily(cmd);
    } else {
      // a pipe from a local `cat` file into a shell is tirith's choice, not remote code
      const localOnly = /^cat \//.test(cmd) && !/curl|wget|base64|\/proc\//.test(cmd);
      const hit = !localOnly && CORE_BLOCK.some(([rx]) => rx.test(cmd));
      tag = act === "block" && stem !== "threatintel" && hit ? "core" : "policy";
      family = blockFamily(cmd);
    }
    out.push(JSON.stringify({
      source: `${REPO} ${f}:${fx._line_input}`,
      category: `tirith:${stem}/${fx.name}`,
      expected, tool: "Bash", input: { command: cmd }, tag, family,
    }));
  }
}
process.stdout.write(out.join("\n") + "\n");
