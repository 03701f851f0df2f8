import { commandName, isProtectedPath, readRm } from '../parsing/command-facts.js';
import { parseShellCommand, type ShellSegment } from '../parsing/shell-command.js';
import { CREDENTIAL_ARG } from './harm-catalogue.js';

/**
 * What flows from one command of a line to a later one through files and descriptors: a download that is
 * run after it was saved, copied or renamed; a credential file that is packed, compressed or linked and then
 * uploaded. A pipe is one road (harm-rules.ts reads pipelines); these are the others.
 */

const DOWNLOADERS = /^(?:curl|wget|aria2c|invoke-webrequest|iwr|scp|rsync)$/;
/** Programs that run code they are given: shells, interpreters, `source`, `eval`, PowerShell's Invoke-Expression. */
export const CODE_RUNNERS = /^(?:sh|bash|zsh|dash|ash|ksh|mksh|fish|busybox|python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php|pwsh|powershell|iex|invoke-expression|source|\.|eval|osascript|tclsh|lua)$/;
const SHELL_IN_SUBSTITUTION = /^>\(\s*(?:sudo\s+)?(?:\S*\/)?(?:(?:ba|z|da|k|mk)?sh|python[\d.]*|perl|ruby|node)\b/;
/** Code read from a descriptor or a process's standard input rather than from a file anyone can read. */
const DESCRIPTOR_PATH = /^\/dev\/(?:fd\/|stdin$)|^\/proc\/[^/]+\/fd\//;
const DECODERS = /^(?:base64|base32|basenc|xxd|uudecode|openssl)$/;
/** Copies that keep a file's content under another name: `cp a b`, `dd if=a of=b`, `ln a b`. */
const COPIES = /^(?:mv|cp|install|ln|link|rsync|ditto)$/;

const strip = (path: string) => path.replace(/^\.\//, '');

/** The destination `dd if=a of=b` or `cp/mv/ln/rsync a b` writes when it copies one of `files`, or undefined. */
function copyOf(segment: ShellSegment, files: ReadonlySet<string>): string | undefined {
  const name = commandName(segment);
  const argv = segment.argv;
  if (name === 'dd') {
    const source = argv.find((a) => a.startsWith('if='))?.slice(3);
    const target = argv.find((a) => a.startsWith('of='))?.slice(3);
    return source !== undefined && target !== undefined && files.has(strip(source)) ? strip(target) : undefined;
  }
  if (!COPIES.test(name)) return undefined;
  const operands = argv.slice(1).filter((a) => !a.startsWith('-'));
  return operands.length >= 2 && operands.slice(0, -1).some((o) => files.has(strip(o))) ? strip(operands.at(-1)!) : undefined;
}

/** Where a downloader or decoder saves what it fetched: `-o f`, `--output=f`, `> f`, or a `tee f` it is piped into. */
function savedTo(segment: ShellSegment, next: ShellSegment | undefined): string[] {
  const files: string[] = [];
  const argv = segment.argv;
  const name = commandName(segment);
  // curl's -O takes no value (the file is named after the URL); wget's -O names the file, and without it wget saves under the URL's name.
  const valued = name === 'curl' ? /^(?:-o|--output)$/ : /^(?:-o|-O|--output|--output-document|-outfile)$/i;
  for (let i = 1; i < argv.length; i++) if (valued.test(argv[i]!) && argv[i + 1]) files.push(argv[i + 1]!);
  const namedAfterUrl = name === 'curl' ? argv.some((a) => a === '-O' || a === '--remote-name' || a === '--remote-name-all' || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a)) : name === 'wget' && !argv.some((a) => /^-[a-zA-Z]*O|^--output-document/.test(a));
  if (namedAfterUrl) for (const a of argv) if (/^(?:https?|ftp):\/\//i.test(a)) files.push(a.replace(/[?#].*$/, '').split('/').pop() || 'index.html');
  for (const a of argv) {
    const m = /^--output(?:-document)?=(.+)$/.exec(a);
    if (m) files.push(m[1]!);
  }
  if (/^(?:scp|rsync)$/.test(name) && argv.some((a) => /^[\w.@-]+:/.test(a))) {
    const last = argv.at(-1);
    if (last && !last.includes(':')) files.push(last);
  }
  for (const r of segment.redirects) if (r.operator === '>' || r.operator === '>>') files.push(r.target);
  if (next?.pipedFrom && commandName(next) === 'tee') files.push(...next.argv.slice(1).filter((a) => !a.startsWith('-')));
  return files.map(strip);
}

/**
 * A command of the line that runs what a download (or a decoder fed from elsewhere) brought: the saved file
 * or a copy of it run by a shell or directly, a shell reading a descriptor a download fills (`exec {fd}<
 * <(curl …); bash <&$fd`, `coproc { curl …; }; bash <&…`), or a download written into a shell (`>(bash)`).
 */
export function downloadedCodeRun(segments: readonly ShellSegment[]): ShellSegment | undefined {
  const files = new Set<string>();
  const downloads = segments.some((s) => DOWNLOADERS.test(commandName(s)) || s.redirects.some((r) => /^<\(\s*(?:curl|wget)\b/.test(r.target)));
  // `exec 4< <(curl …)`: a descriptor of the shell itself now reads the download; a runner with no script may read it.
  const descriptorDownload = segments.some((s) => s.argv.length === 0 && s.redirects.some((r) => /^(?:\d+|\{\w+\})?<$/.test(r.operator) && /^<\(\s*(?:curl|wget)\b/.test(r.target)));
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const name = commandName(segment);
    // A local copy first: `rsync a b` copies, `rsync host:a b` downloads.
    const copy = files.size ? copyOf(segment, files) : undefined;
    if (copy !== undefined) {
      files.add(copy);
      continue;
    }
    if (DOWNLOADERS.test(name) || (DECODERS.test(name) && segment.redirects.some((r) => r.operator === '>'))) {
      for (const file of savedTo(segment, segments[i + 1])) files.add(file);
      continue;
    }
    // `exec 3>f; curl … >&3`: the file a descriptor of the shell writes may hold the download.
    if (downloads && segment.argv.length === 0) {
      for (const r of segment.redirects) if (/^(?:\d+|\{\w+\})>>?$/.test(r.operator) && !r.target.startsWith('>(')) files.add(strip(r.target));
    }
    if (downloads) {
      if (segment.redirects.some((r) => SHELL_IN_SUBSTITUTION.test(r.target))) return segment;
      if (CODE_RUNNERS.test(name) && (segment.redirects.some((r) => r.operator === '<&') || segment.argv.slice(1).some((a) => DESCRIPTOR_PATH.test(a)))) return segment;
      if (descriptorDownload && CODE_RUNNERS.test(name) && segment.argv.slice(1).every((a) => a.startsWith('-'))) return segment;
      // `read -u 3 cmd; eval "$cmd"`: what eval runs was read from the download.
      if (descriptorDownload && name === 'eval' && segment.dynamic.slice(1).some(Boolean)) return segment;
    }
    if (!files.size) continue;
    if (files.has(strip(segment.argv[0] ?? ''))) return segment;
    if (CODE_RUNNERS.test(name) && segment.argv.slice(1).some((a) => files.has(strip(a)))) return segment;
  }
  return undefined;
}

/** A private key or credential file by its name (`server.key`, `id_ed25519`, `.env`, `tls-private.pem`): the harm catalogue's reading, and private PEM files. */
function isCredentialFile(path: string): boolean {
  return CREDENTIAL_ARG.test(` ${path} `) || /(?:^|[/\\])[\w.-]*private[\w.-]*\.pem$/i.test(path);
}

const UPLOADING = /^(?:curl|http|https|xh|wget|nc|ncat|netcat|socat)$/;
const PACKERS = /^(?:tar|bsdtar|zip|7z|7za|gzip|bzip2|xz|zstd|lz4|base64|openssl|gpg|cpio|pax)$/;

const NOTHING: readonly string[] = Object.freeze([]);

/** What an upload sends from a file: `curl -T f`, `--data-binary @f`, `-F x=@f`, `-d "$(<f)"`, `wget --post-file=f`, `< f` into nc. */
function uploadedFiles(segment: ShellSegment): readonly string[] {
  const name = commandName(segment);
  if (!UPLOADING.test(name)) return NOTHING;
  const args = segment.argv.slice(1);
  const out: string[] = [];
  if (name !== 'wget' && !/^(?:nc|ncat|netcat|socat)$/.test(name)) {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if ((a === '-T' || a === '--upload-file') && args[i + 1]) out.push(args[i + 1]!);
      // Asked of every argument of every request: the patterns only where their first character is.
      const at = a.includes('@') ? /(?:^|=)@([^;\s]+)/.exec(a) : null;
      if (at && at[1] !== '-') out.push(at[1]!);
      const read = a.includes('$(') ? /\$\(\s*(?:<|cat\s+)\s*([^)\s]+)\s*\)/.exec(a) : null;
      if (read) out.push(read[1]!);
    }
  } else if (name === 'wget') {
    for (const a of args) if (a.startsWith('--post-file=')) out.push(a.slice('--post-file='.length));
  } else if (/^(?:nc|ncat|netcat|socat)$/.test(name)) {
    out.push(...segment.redirects.filter((r) => r.operator === '<').map((r) => r.target));
  }
  return out.map(strip);
}

/**
 * A credential file of the line that reaches an upload after it was packed, compressed, encoded or linked
 * under another name (`gzip -k server.key; curl -T server.key.gz …`, `tar cf s.tgz id_rsa; curl
 * --data-binary @s.tgz …`), or read by a subshell into the request (`curl -d "$(<key)"`). Returns what is
 * uploaded, or undefined.
 */
export function stagedSecretUpload(segments: readonly ShellSegment[]): string | undefined {
  // Most lines upload nothing: the files are only followed when something is sent.
  const uploads = segments.map(uploadedFiles);
  if (!uploads.some((files) => files.length > 0)) return undefined;
  const secrets = new Set<string>();
  const tainted = (path: string) => [...secrets].some((s) => path === s || path.startsWith(`${s}.`));
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const name = commandName(segment);
    const operands = segment.argv.slice(1).filter((a) => !a.startsWith('-') || /^(?:if|of)=/.test(a));
    for (const operand of operands) if (isCredentialFile(operand.replace(/^(?:if|of)=/, ''))) secrets.add(strip(operand.replace(/^(?:if|of)=/, '')));
    // The environment written to a file (`printenv > env.log`): every credential in it goes with the file.
    const dumpsEnvironment = (segment.argv.length === 0 && segment.wrappers.at(-1) === 'env') || (/^(?:env|printenv|set)$/.test(name) && segment.argv.length === 1);
    if (dumpsEnvironment) for (const r of segment.redirects) if (r.operator === '>' || r.operator === '>>') secrets.add(strip(r.target));
    // The names a packer reads from its input (`printf key | zip out -@`).
    const previous = segments[i - 1];
    const fed = segment.pipedFrom && previous && previous.argv.slice(1).some((a) => tainted(strip(a)));
    if (PACKERS.test(name) && (fed || operands.some((o) => tainted(strip(o))))) {
      const file = segment.argv.findIndex((a) => /^-[a-zA-Z]*f$|^--file$/.test(a));
      if (file > 0 && segment.argv[file + 1]) secrets.add(strip(segment.argv[file + 1]!));
      // tar's old style: `tar cf out.tgz files…` (letters without a dash, the archive next).
      if (name === 'tar' && /^[a-zA-Z]*f[a-zA-Z]*$/.test(segment.argv[1] ?? '') && segment.argv[2]) secrets.add(strip(segment.argv[2]));
      for (const a of segment.argv) if (a.startsWith('--file=')) secrets.add(strip(a.slice('--file='.length)));
      // zip and 7z name the archive first; the others write next to their input (tainted by prefix).
      if ((name === 'zip' || name === '7z' || name === '7za') && operands[0]) secrets.add(strip(operands[0].replace(/^a$/, operands[1] ?? '')));
      for (const r of segment.redirects) if (r.operator === '>' || r.operator === '>>') secrets.add(strip(r.target));
      continue;
    }
    if (name === 'dd' || COPIES.test(name)) {
      const copy = copyOf(segment, secrets);
      if (copy !== undefined) secrets.add(copy);
      continue;
    }
    const sent = uploads[i]!.find((p) => tainted(p) || isCredentialFile(p));
    if (sent !== undefined) return `${name} ${sent}`;
  }
  return undefined;
}

/** Whether a command line, as text, deletes the whole machine or a home (`rm -rf /`, `rm -r ~`). */
function wipesMachine(text: string): boolean {
  return parseShellCommand(text).some((s) => {
    const rm = readRm(s);
    return !!rm?.recursive && rm.targets.some(isProtectedPath);
  });
}

/** The literal texts of a line: quoted strings, here-documents, and the alternatives of `${x+…}`. */
function literals(line: string): string[] {
  const out: string[] = [];
  // printf's and echo -e's `\n` and `\t` end a word as the shell that later reads the text will see it.
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"/g)) out.push((m[1] ?? m[2] ?? '').replace(/\\[nt]/g, ' ').replace(/\\(.)/g, '$1'));
  for (const m of line.matchAll(/<<-?\s*['"]?(\w+)['"]?[^\n]*\n([\s\S]*?)\n\s*\1\b/g)) out.push(m[2]!);
  for (const m of line.matchAll(/\$\{\w+:?[+-]([^}]*)\}/g)) out.push(m[1]!);
  return out;
}

/**
 * A command word that is a parameter expansion, given rm's recursive options and the root or a home
 * (`"$B" -rf /`, `${T%x} -rf ~`): whatever the shell's rules make of the variable, it is read as rm.
 */
const COMPUTED_WIPE = /(?:^|[;&|(\n]\s*)"?\$\{?[\w@#?*!]+[^"\s;&|]*"?((?:\s+-[a-zA-Z]*[rR][a-zA-Z]*)+)\s+("?)(?:\/\*?|~\/?|\$\{?HOME\}?\/?)\2(?=\s|$|[;&|)])/;

const RECURSIVE_OPTION = /(?:^|[\s'"])-[a-zA-Z]*[rR]|--recursive/;

/** Names the line binds to another program before it uses them: `alias w='rm -rf /'`, `hash -p /bin/rm w`, `enable -n echo`. */
function reboundNames(segments: readonly ShellSegment[]): Set<string> {
  const names = new Set<string>();
  for (const s of segments) {
    const name = commandName(s);
    if (name === 'alias') for (const a of s.argv.slice(1)) names.add(a.split('=')[0]!);
    if (name === 'hash' && s.argv[1] === '-p' && s.argv[3]) names.add(s.argv[3]);
    if (name === 'enable' && s.argv[1] === '-n') for (const a of s.argv.slice(2)) names.add(a);
  }
  return names;
}

/**
 * A command whose program is only known when the line runs (`"$TOOL" -rf /`, `${T%x} -rf /`, a name re-bound
 * by alias or hash -p) with arguments that would wipe the machine were it rm; or code built at run time (eval
 * of a variable, source of a descriptor, a shell fed through a descriptor) in a line whose literal text wipes
 * the machine (`exec 3<<<'rm -rf /'; source /dev/fd/3`). Returns the command, or undefined.
 */
export function runTimeWipe(segments: readonly ShellSegment[], line: string): ShellSegment | undefined {
  // Every wipe read here is an rm given a recursive option: a line without one has none.
  if (!RECURSIVE_OPTION.test(line)) return undefined;
  const rebound = reboundNames(segments);
  for (const s of segments) {
    const computed = s.dynamic[0] === true || (rebound.has(s.argv[0] ?? '') && commandName(s) !== 'alias');
    if (computed && s.argv.length > 1 && wipesMachine(['rm', ...s.argv.slice(1)].join(' '))) return s;
  }
  if (COMPUTED_WIPE.test(line)) return segments.find((s) => s.argv.length > 0);
  const written = new Set(segments.flatMap((s) => s.redirects.filter((r) => r.operator === '>' || r.operator === '>>').map((r) => strip(r.target))));
  const runsBuiltCode = segments.some((s) => {
    const name = commandName(s);
    if (written.has(strip(s.argv[0] ?? '')) || (CODE_RUNNERS.test(name) && s.argv.slice(1).some((a) => written.has(strip(a))))) return true;
    // A command word known only when the line runs: `$TOOL`, eval's or `bash -c`'s `"$(…)"`.
    if (s.dynamic[0] === true) return true;
    if (rebound.has(s.argv[0] ?? '') && name !== 'alias' && name !== 'hash' && name !== 'enable') return true;
    if ((name === 'source' || name === '.') && s.argv.slice(1).some((a) => DESCRIPTOR_PATH.test(a) || s.dynamic[s.argv.indexOf(a)])) return true;
    if (CODE_RUNNERS.test(name) && (s.redirects.some((r) => r.operator === '<&') || s.argv.slice(1).some((a) => DESCRIPTOR_PATH.test(a)))) return true;
    return s.redirects.some((r) => SHELL_IN_SUBSTITUTION.test(r.target));
  });
  if (!runsBuiltCode) return undefined;
  return literals(line).some(wipesMachine) ? segments.find((s) => s.argv.length > 0) : undefined;
}
