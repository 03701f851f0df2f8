import { isCredentialStorePath, mayNameCredentialStore } from '@warden/actions';

/** Files that hold credentials: .env files (not their examples), SSH keys, cloud, registry and database credentials. */
const SECRET_FILE =
  /(?:^|\/)(?:\.env(?:\.(?!example$|sample$|template$|dist$|defaults$)[\w.-]+)?|id_(?:rsa|dsa|ecdsa|ed25519)|\.npmrc|\.pypirc|\.netrc|\.pgpass|\.git-credentials|credentials(?:\.json)?)$/;
const SECRET_DIRECTORY = /(?:^|\/)(?:\.ssh|\.aws|\.gnupg)\/?$|(?:^|\/)\.ssh\/(?!known_hosts$|config$|authorized_keys2?$|[^/]*\.pub$)[^/]+$|(?:^|\/)\.docker\/config\.json$|(?:^|\/)\.kube\/config$/;

export function isSecretFile(path: string): boolean {
  return SECRET_FILE.test(path) || SECRET_DIRECTORY.test(path) || isCredentialStorePath(path);
}

/** Text every secret file's path contains: a word without any holds no secret file among its pieces. */
const SECRET_NAME = /\.env|id_(?:rsa|dsa|ecdsa|ed25519)|\.npmrc|\.pypirc|\.netrc|\.pgpass|\.git-credentials|credentials|\.ssh|\.aws|\.gnupg|\.docker\/config\.json|\.kube\/config/;

/** The secret file a shell word names, also inside `@file`, `name=@file` or `$(cat file)`. */
export function secretFileIn(word: string): string | undefined {
  if (!SECRET_NAME.test(word) && !mayNameCredentialStore(word)) return undefined;
  if (isSecretFile(word)) return word;
  return word.split(/[\s@=<>()`"';|]+/).find((piece) => piece !== '' && isSecretFile(piece));
}
