import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATOR_BUCKET } from '@warden/contracts';
import { natsSettingsFromEnv, type NatsSettings } from '@warden/messaging';
import { isOperatorRole, OPERATOR_ROLES, OperatorStore, OperatorStoreError, type OperatorRole } from '@warden/operator-auth';
import { integerOption, UsageError, type Command } from '../command.js';
import { withOperatorBus } from '../operator-bus.js';
import { out, style } from '../output.js';

const DAY_MS = 86_400_000;

/** Where the command reaches the operator store: NATS_* when NATS_USER is set, else the local suite's service user. */
export function storeConnection(env: NodeJS.ProcessEnv, stateDir: string): NatsSettings {
  if (env.NATS_USER) return natsSettingsFromEnv(env, 'warden-operator-cli');
  const credentials = join(stateDir, 'credentials.json');
  if (!existsSync(credentials)) return natsSettingsFromEnv(env, 'warden-operator-cli');
  const { service } = JSON.parse(readFileSync(credentials, 'utf8')) as { service: { user: string; password: string } };
  const suite = join(stateDir, 'suite.json');
  const natsUrl = existsSync(suite) ? (JSON.parse(readFileSync(suite, 'utf8')) as { nats_url?: string }).nats_url : undefined;
  return { servers: env.NATS_URL ?? natsUrl ?? 'nats://127.0.0.1:4222', user: service.user, password: service.password, name: 'warden-operator-cli' };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function role(value: unknown): OperatorRole {
  if (!isOperatorRole(value)) throw new UsageError(`--role must be one of ${OPERATOR_ROLES.join(', ')}${value === undefined ? '' : ` (got "${String(value)}")`}`);
  return value;
}

export const operatorCommand: Command = {
  name: 'operator',
  summary: 'Create operators of the console and the HTTP APIs, issue and revoke their tokens',
  help: `Usage:
  warden operator add <id> --role viewer|approver|admin [--password-stdin]
  warden operator token <id> [--label L] [--expires-days N]
  warden operator revoke <id>
  warden operator passwd <id> [--password-stdin]
  warden operator role <id> viewer|approver|admin
  warden operator remove <id>
  warden operator list [--json]

Operators log in to the console with their password and call the gate's and audit's APIs (and
\`warden gate\`, \`warden audit\`) with an API token. Roles: viewer reads; approver also pauses,
approves, rewrites, rejects, stops and resumes sessions; admin also sets agents' automation levels and
runs audit retention. Warden keeps only a scrypt hash of each password and the SHA-256 of each token,
in the JetStream KV bucket ${OPERATOR_BUCKET}: a password or token is printed once, here.

  add      create an operator; prints a generated password (or reads one from stdin) and an API token
  token    issue another API token (e.g. one per machine or script)
  revoke   revoke every API token of the operator
  passwd   set a new password (generated, or from stdin); ends the operator's console logins
  role     change the role; it applies to the next request
  remove   remove the operator with every token and login

Options:
  --role R           add: viewer, approver or admin
  --password-stdin   read the password from stdin instead of generating one (at least 12 characters)
  --label L          token: a name to tell tokens apart [cli]
  --expires-days N   token: expire after N days [never]
  --state-dir DIR    the local suite's directory, for its NATS address and service user [.warden]
  --json             list: print JSON

Environment: NATS_URL, NATS_USER, NATS_PASSWORD of a service user (operator and agent NATS users cannot
read the store). Without NATS_USER, the local suite's service user from <state-dir>/credentials.json.

Examples:
  warden operator add alice --role approver
  warden operator token alice --label laptop --expires-days 90
  printf '%s' "$NEW_PASSWORD" | warden operator passwd alice --password-stdin`,
  options: {
    role: { type: 'string' },
    'password-stdin': { type: 'boolean' },
    label: { type: 'string' },
    'expires-days': { type: 'string' },
    'state-dir': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const [sub, id, extra, ...rest] = positionals;
    if (!sub) throw new UsageError('say what to do: add, token, revoke, passwd, role, remove or list. Run `warden operator --help`.');
    if (sub !== 'list' && !id) throw new UsageError(`warden operator ${sub} needs the operator id`);
    if (rest.length || (extra !== undefined && sub !== 'role')) throw new UsageError(`unexpected argument(s): ${[extra, ...rest].filter(Boolean).join(' ')}`);
    const newRole = sub === 'add' ? role(values.role) : sub === 'role' ? role(extra) : undefined;
    const password = values['password-stdin'] ? await readStdin() : undefined;
    const ttlMs = values['expires-days'] === undefined ? undefined : integerOption(values, 'expires-days', 1) * DAY_MS;
    const settings = storeConnection(process.env, (values['state-dir'] as string | undefined) ?? '.warden');
    return withOperatorBus(
      'warden-operator-cli',
      async ({ nc }) => {
        const store = new OperatorStore(nc);
        try {
          return await runSubcommand(store, sub, id!, { role: newRole, password, ttlMs, label: values.label as string | undefined, json: values.json === true });
        } catch (error) {
          if (!(error instanceof OperatorStoreError)) throw error;
          out.error(error.message);
          return 1;
        }
      },
      settings,
    );
  },
};

interface Options {
  role: OperatorRole | undefined;
  password: string | undefined;
  ttlMs: number | undefined;
  label: string | undefined;
  json: boolean;
}

async function runSubcommand(store: OperatorStore, sub: string, id: string, options: Options): Promise<number> {
  const by = process.env.USER ?? 'warden operator';
  switch (sub) {
    case 'add': {
      const { password } = await store.add(id, options.role!, { createdBy: by, ...(options.password !== undefined ? { password: options.password } : {}) });
      const token = await store.issueToken(id, { label: options.label ?? 'cli' });
      out.step(`operator ${style.bold(id)} (${options.role}) created`);
      if (options.password === undefined) out.line(`  console password  ${password}`);
      out.line(`  API token         ${token}`);
      out.line(style.dim('  Shown once: Warden keeps only their hashes. Use the token as WARDEN_OPERATOR_TOKEN or Authorization: Bearer.'));
      return 0;
    }
    case 'token': {
      const token = await store.issueToken(id, { label: options.label ?? 'cli', ...(options.ttlMs ? { ttlMs: options.ttlMs } : {}) });
      out.line(token);
      return 0;
    }
    case 'revoke':
      out.step(`revoked ${await store.revokeTokens(id)} API token(s) of ${id}`);
      return 0;
    case 'passwd': {
      const password = await store.setPassword(id, options.password);
      out.step(`new password for ${id}; their console logins ended`);
      if (options.password === undefined) out.line(`  console password  ${password}`);
      return 0;
    }
    case 'role':
      await store.setRole(id, options.role!);
      out.step(`${id} is now ${options.role}`);
      return 0;
    case 'remove':
      if (!(await store.remove(id))) {
        out.error(`no operator ${id}`);
        return 1;
      }
      out.step(`removed ${id} with every token and login`);
      return 0;
    case 'list': {
      const operators = await store.list();
      if (options.json) out.line(JSON.stringify(operators, null, 2));
      else for (const o of operators) out.line(`${o.id.padEnd(24)} ${o.role.padEnd(9)} ${o.tokens.length} token(s)  created ${o.created_at} by ${o.created_by}`);
      return 0;
    }
    default:
      throw new UsageError(`unknown operator command "${sub}": use add, token, revoke, passwd, role, remove or list`);
  }
}
