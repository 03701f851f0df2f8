/**
 * Where credentials are kept, by the program that keeps them: the one table every rule reads for "a credential
 * store" (reading one copies its secrets into the conversation; archiving, copying or uploading one takes them
 * away). A path starting with `~/` is under any home (`~`, `/home/<user>`, `/Users/<user>`, `/root`,
 * `C:\Users\<user>`); others are absolute. `*` is any part of one name, `**` any depth.
 */
export interface CredentialStore {
  path: string;
  /** What keeps its credentials there. */
  holder: string;
  /** Where the path exists (a home-relative path is the same on every system whose home holds it). */
  platforms: readonly ('linux' | 'macos' | 'windows')[];
}

const ALL = ['linux', 'macos', 'windows'] as const;
const UNIX = ['linux', 'macos'] as const;
const store = (holder: string, platforms: CredentialStore['platforms'], ...paths: string[]): CredentialStore[] =>
  paths.map((path) => ({ path, holder, platforms }));

export const CREDENTIAL_STORES: readonly CredentialStore[] = [
  ...store('SSH private keys', ALL, '~/.ssh/id_*', '~/.ssh/*_key', '/etc/ssh/ssh_host_*_key'),
  ...store('AWS CLI', ALL, '~/.aws/credentials', '~/.aws/sso/cache/*', '~/.aws/cli/cache/*'),
  ...store('Google Cloud CLI', UNIX, '~/.config/gcloud/credentials.db', '~/.config/gcloud/access_tokens.db', '~/.config/gcloud/application_default_credentials.json', '~/.config/gcloud/legacy_credentials/**'),
  ...store('Google Cloud CLI', ['windows'], '~/AppData/Roaming/gcloud/credentials.db', '~/AppData/Roaming/gcloud/access_tokens.db', '~/AppData/Roaming/gcloud/application_default_credentials.json', '~/AppData/Roaming/gcloud/legacy_credentials/**'),
  ...store('Azure CLI', ALL, '~/.azure/accessTokens.json', '~/.azure/msal_token_cache.*', '~/.azure/service_principal_entries.json'),
  ...store('Kubernetes', ALL, '~/.kube/config'),
  ...store('container secrets', ['linux'], '/run/secrets/*', '/var/run/secrets/**'),
  ...store('Kubernetes control plane', ['linux'], '/etc/kubernetes/admin.conf', '/etc/kubernetes/super-admin.conf', '/etc/rancher/k3s/k3s.yaml'),
  ...store('Docker registries', ALL, '~/.docker/config.json', '~/.dockercfg'),
  ...store('git and HTTP logins', ALL, '~/.netrc', '~/_netrc', '~/.git-credentials', '~/.config/git/credentials'),
  ...store('GitHub CLI', UNIX, '~/.config/gh/hosts.yml'),
  ...store('GitHub CLI', ['windows'], '~/AppData/Roaming/GitHub CLI/hosts.yml'),
  ...store('GitLab CLI, hub, Copilot', ALL, '~/.config/glab-cli/config.yml', '~/.config/hub', '~/.config/github-copilot/hosts.json', '~/.config/github-copilot/apps.json'),
  ...store('databases', ALL, '~/.pgpass', '~/.my.cnf', '~/.mylogin.cnf', '~/.databrickscfg', '~/.snowflake/connections.toml', '~/.snowsql/config'),
  ...store('package registries', ALL, '~/.npmrc', '~/.yarnrc.yml', '~/.pypirc', '~/.gem/credentials', '~/.cargo/credentials', '~/.cargo/credentials.toml', '~/.config/composer/auth.json', '~/.composer/auth.json', '~/.m2/settings.xml', '~/.m2/settings-security.xml', '~/.gradle/gradle.properties'),
  ...store('infrastructure CLIs', ALL, '~/.terraform.d/credentials.tfrc.json', '~/.terraformrc', '~/.vault-token', '~/.pulumi/credentials.json', '~/.config/doctl/config.yaml', '~/.fly/config.yml', '~/.config/hcloud/cli.toml', '~/.s3cfg', '~/.boto', '~/.config/rclone/rclone.conf', '~/.circleci/cli.yml', '~/.oci/config', '~/.oci/*.pem'),
  ...store('hosting and API CLIs', ALL, '~/.wrangler/config/default.toml', '~/.config/.wrangler/config/default.toml', '~/.supabase/access-token', '~/.config/stripe/config.toml', '~/.netlify/config.json', '~/.config/netlify/config.json', '~/.local/share/com.vercel.cli/auth.json', '~/.config/ngrok/ngrok.yml', '~/.ngrok2/ngrok.yml', '~/.kaggle/kaggle.json', '~/.cache/huggingface/token', '~/.huggingface/token'),
  ...store('hosting and API CLIs', ['macos'], '~/Library/Application Support/com.vercel.cli/auth.json', '~/Library/Preferences/netlify/config.json', '~/Library/Application Support/ngrok/ngrok.yml'),
  ...store('coding agents', ALL, '~/.claude/.credentials.json', '~/.codex/auth.json', '~/.gemini/oauth_creds.json'),
  ...store('wallets', ALL, '~/.config/solana/id.json', '~/.ethereum/keystore/*', '~/.bitcoin/wallet.dat', '~/Library/Application Support/Bitcoin/wallet.dat'),
  ...store('GnuPG, pass, keyrings', UNIX, '~/.gnupg/private-keys-v1.d/**', '~/.gnupg/secring.gpg', '~/.password-store/**', '~/.local/share/keyrings/*'),
  ...store('macOS keychains', ['macos'], '~/Library/Keychains/**', '/Library/Keychains/**'),
  ...store('browsers’ saved logins and cookies', ALL, '~/.mozilla/firefox/*/logins.json', '~/.mozilla/firefox/*/key4.db', '~/.mozilla/firefox/*/cookies.sqlite', '~/.config/google-chrome/*/Login Data', '~/.config/google-chrome/*/Cookies', '~/.config/chromium/*/Login Data'),
  ...store('browsers’ saved logins and cookies', ['macos'], '~/Library/Application Support/Google/Chrome/*/Login Data', '~/Library/Application Support/Google/Chrome/*/Cookies'),
  ...store('browsers’ saved logins and cookies', ['windows'], '~/AppData/Local/Google/Chrome/User Data/*/Login Data', '~/AppData/Local/Google/Chrome/User Data/*/Network/Cookies', '~/AppData/Local/Microsoft/Edge/User Data/*/Login Data'),
  ...store('system accounts', UNIX, '/etc/shadow', '/etc/gshadow', '/etc/master.passwd'),
  ...store('Windows accounts and vaults', ['windows'], 'c:/windows/system32/config/sam', 'c:/windows/system32/config/security', 'c:/windows/system32/config/system', 'c:/windows/ntds/ntds.dit', '~/AppData/Roaming/Microsoft/Credentials/*', '~/AppData/Local/Microsoft/Credentials/*', '~/AppData/Roaming/Microsoft/Protect/**'),
];

/** A home as paths are resolved (`~` where the session's home is unknown; Windows homes lower-cased with `/`). */
const HOME = '(?:~|/home/[^/]+|/users/[^/]+|/root|[a-z]:/users/[^/]+)';

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\/]/g, '\\$&');

/** One table path as a pattern of resolved paths. */
function pathPattern(path: string): string {
  const body = path
    .replace(/^~\//, '')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : escape(part)))
    .join('');
  return path.startsWith('~/') ? `${HOME}/${body}` : body;
}

/**
 * Stores whose directory or name is unmistakable wherever it lies (a copy of `.ssh` or `.aws` in a backup, a
 * container's root): matched under any directory, not only under a home.
 */
const ANYWHERE = /^~\/(?:\.ssh|\.aws|\.kube|\.docker|\.gnupg|\.azure|\.config\/gcloud|\.password-store|Library\/Keychains|\.netrc|\.git-credentials|\.pgpass)\b/;

/** The pattern of a home-relative store without its home. */
const underHome = (s: CredentialStore) => pathPattern(s.path).slice(HOME.length + 1);
/** Stores under a home, stores that are themselves absolute, and stores found under any directory (searched for, not anchored). */
const HOME_PATH = new RegExp(`^${HOME}/(?:${CREDENTIAL_STORES.filter((s) => s.path.startsWith('~/')).map(underHome).join('|')})$`, 'i');
const ABSOLUTE_PATH = new RegExp(`^(?:${CREDENTIAL_STORES.filter((s) => !s.path.startsWith('~/')).map((s) => pathPattern(s.path)).join('|')})$`, 'i');
const ANY_DIRECTORY_PATH = new RegExp(`/(?:${CREDENTIAL_STORES.filter((s) => ANYWHERE.test(s.path)).map(underHome).join('|')})$`, 'i');

/**
 * A tool's login file in its configuration directory (`~/.config/<tool>/auth.json`, `…/token.yaml`), or in
 * its own dot-directory of a home (`~/.openclaw/agents/main/agent/auth.json`), whatever the tool.
 */
const DOT_DIRECTORY_LOGIN = /\.[^/]+\/(?:[^/]+\/)*\.?(?:auth|credentials|oauth_creds|tokens?)\.json$/.source;
const CONFIG_LOGIN_FILE = new RegExp(
  `${/\/\.config\/[^/]+\/(?:auth|credentials|hosts|token)[^/]*\.(?:json|toml|ya?ml)$/.source}|${/^(?:~|\/home\/[^/]+|\/users\/[^/]+|\/root|[a-z]:\/users\/[^/]+)\//.source}${DOT_DIRECTORY_LOGIN}`,
  'i',
);

/** A tool's login file in a dot-directory wherever it lies (`.codex/auth.json` of a Codex home kept in a project). */
export const DOT_DIRECTORY_LOGIN_FILE = new RegExp(`(?:^|\\/)${DOT_DIRECTORY_LOGIN}`, 'i');

/** Whether a resolved path is a credential store of the table, or a tool's login file (a public key never is). */
export function isCredentialStorePath(path: string): boolean {
  // Most paths name none of the stores: the literal names are looked for first.
  if (/\.pub$/i.test(path) || (!NAME_HINT.test(path) && !/\.(?:json|toml|ya?ml)$/i.test(path))) return false;
  return HOME_PATH.test(path) || ABSOLUTE_PATH.test(path) || ANY_DIRECTORY_PATH.test(path) || CONFIG_LOGIN_FILE.test(path);
}

/** One table path as text inside a command (`\` or `/`, a home written any way or not at all). */
function textPattern(path: string): string {
  return path
    .replace(/^~\//, '')
    .split(/(\*\*|\*|\/)/)
    .map((part) => (part === '**' ? '[^\\s"\']*' : part === '*' ? '[^\\s"\'/\\\\]*' : part === '/' ? '[\\\\/]+' : escape(part).replace(/ /g, '[ ]')))
    .join('');
}

/**
 * A credential store named in a command's text (`tar czf k.tgz ~/.codex/auth.json`,
 * `Get-Content $env:USERPROFILE\.aws\credentials`): the table's paths after a path boundary, up to the end of a word.
 */
export const CREDENTIAL_STORE_TEXT = new RegExp(
  `(?:^|[\\s"'=:@/\\\\~])(?:${CREDENTIAL_STORES.map((s) => textPattern(s.path).replace(/^\[\\\\\/\]\+/, '')).join('|')})(?<!\\.pub)(?=$|[\\s"'),;|&<>])`,
  'i',
);

/**
 * Directories that hold many tools' files, or a tool's caches and builds beside one login file (a build cache
 * of `~/.m2` or `~/.gradle` is archived in CI): taking one of them is no sign of taking a store.
 */
const SHARED_DIRECTORIES = /^(?:\.config|\.local|\.local\/share|\.cache|\.cache\/huggingface|AppData|AppData\/Roaming|AppData\/Local|Library|Library\/Application Support|Library\/Preferences|\.m2|\.gradle|\.cargo|\.gem|\.composer|\.config\/composer|\.config\/git|\.mozilla\/firefox|\.config\/google-chrome|\.config\/chromium)$/i;

/** The directory in a home that holds a store (`.codex` of `~/.codex/auth.json`, `.config/gh` of `~/.config/gh/hosts.yml`). */
const storeDirectory = (path: string): string | undefined => {
  const parts = path.replace(/^~\//, '').split('/');
  const literal = parts.findIndex((part) => part.includes('*'));
  const directory = parts.slice(0, literal < 0 ? parts.length - 1 : literal).join('/');
  return directory && !SHARED_DIRECTORIES.test(directory) ? directory : undefined;
};

/**
 * A home's directory that holds a credential store, named whole (`rsync -a ~/.config/gh/ host:`, `tar czf
 * x.tgz ~/.codex`): copying, archiving or sending it takes the store along. Anchored to a home: a project's own
 * `.codex` or `.gemini` holds its settings, not the user's login.
 */
export const CREDENTIAL_DIRECTORY_TEXT = new RegExp(
  `(?:^|[\\s"'=:@])(?:~|\\$home|\\$\\{home\\}|\\$env:userprofile|%userprofile%|/home/[^/\\s]+|/users/[^/\\s]+|/root|c:[\\\\/]+users[\\\\/]+[^\\\\/\\s]+)[\\\\/]+(?:${[
    ...new Set(CREDENTIAL_STORES.filter((s) => s.path.startsWith('~/')).map((s) => storeDirectory(s.path)).filter((d): d is string => !!d)),
  ]
    .map((d) => textPattern(`~/${d}`))
    .join('|')})[\\\\/]*(?=$|[\\s"'),;|&<>])`,
  'i',
);

/** The last literal name of every store: an argument holding none of them names no store (checked before resolving it). */
const LAST_NAMES = [...new Set(CREDENTIAL_STORES.map((s) => s.path.split(/[/*]+/).filter(Boolean).pop()!.replace(/^[_.]/, '')))];
const NAME_HINT = new RegExp(LAST_NAMES.map(escape).join('|'), 'i');

/** Whether text may name a credential store, before it is resolved against the working directory. */
export function mayNameCredentialStore(text: string): boolean {
  return NAME_HINT.test(text);
}

/** One real path per table entry (wildcards filled in), under `home`: what a glob is tried against. */
export function credentialStoreExamples(home: string): string[] {
  return CREDENTIAL_STORES.flatMap((s) => {
    const keys = s.path === '~/.ssh/id_*' ? ['rsa', 'ed25519', 'ecdsa', 'dsa'].map((k) => `~/.ssh/id_${k}`) : [s.path];
    return keys.map((path) => {
      const filled = path.replace(/\*\*/g, 'x').replace(/\*/g, 'x');
      return filled.startsWith('~/') ? `${home}/${filled.slice(2)}` : filled;
    });
  });
}
