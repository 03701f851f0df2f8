/** A variable named like a credential: GH_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD, OPENAI_API_KEY. */
const CREDENTIAL_NAME = /(?:TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH|COOKIE|SESSION_?ID)/i;
/** Named like one but holding where something is (`SSH_AUTH_SOCK`, `AUTH_URL`, `GOOGLE_APPLICATION_CREDENTIALS_PATH`), not a secret. */
const LOCATION_NAME = /_(?:SOCK|SOCKET|URL|URI|HOST|PORT|PATH|DIR|FILE|ENDPOINT|DOMAIN|PROVIDER|MODE|TYPE)$/i;
/**
 * Also credentials: a database's or broker's connection string (its URL carries the password:
 * `postgres://app:pw@db/app`), a webhook's URL (whoever has it may post), and a service's key (`STRIPE_KEY`,
 * `SENDGRID_KEY`), not one that is public by design or names a place in data (`STRIPE_PUBLISHABLE_KEY`,
 * `SUPABASE_ANON_KEY`, `SORT_KEY`).
 */
const CREDENTIAL_TOO =
  /^(?:\w+_)?(?:DATABASE|DB|POSTGRES(?:QL)?|PG|MYSQL|MARIADB|MONGO(?:DB)?|REDIS|AMQP|RABBITMQ|CLICKHOUSE)_(?:URL|URI|DSN)$|CONNECTION_?STRING$|WEBHOOK(?:_URL)?$|^(?!\w*(?:PUBLIC|PUBLISHABLE|ANON|SORT|PARTITION|PRIMARY|CACHE|IDEMPOTENCY|ROUTING|HASH|SSH|GPG|PGP|LICENSE|SITE|CLIENT|MAP|MAPS|MAPBOX|FIREBASE)_KEY$)[A-Z][A-Z0-9]*_KEY$/i;

/** A variable that holds a credential, by its name. */
export function credentialVariable(name: string): boolean {
  return (CREDENTIAL_NAME.test(name) && !LOCATION_NAME.test(name)) || CREDENTIAL_TOO.test(name);
}

/** `$GH_TOKEN`, `${GH_TOKEN}`, `${GH_TOKEN:0:10}` print it (or part of it); `${GH_TOKEN:+set}` and `${#GH_TOKEN}` do not. */
const PRINTED_VARIABLE = /\$(?:\{(?![#!])([A-Za-z_]\w*)(?![:]?[+?]|:-|-)(?::\d+(?::\d+)?)?\}|([A-Za-z_]\w*))/g;

/** The first credential variable a word expands (`"key=$STRIPE_KEY"`), as `$NAME`, unless `assigned` says the line set it itself. */
export function credentialIn(word: string, assigned: (name: string) => boolean = () => false): string | undefined {
  if (!word.includes('$')) return undefined;
  for (const match of word.matchAll(PRINTED_VARIABLE)) {
    const name = match[1] ?? match[2]!;
    if (credentialVariable(name) && !assigned(name)) return `$${name}`;
  }
  return undefined;
}
