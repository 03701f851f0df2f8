import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { commandNames, positionsRunning } from '../parsing/segment-index.js';
import { basename, type ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';

const DATABASE_CLIENTS = new Set([
  'psql', 'pgcli', 'mysql', 'mariadb', 'mycli', 'sqlite3', 'sqlite', 'litecli', 'duckdb', 'sqlcmd', 'clickhouse-client', 'cockroach', 'mongosh', 'mongo', 'redis-cli',
]);
/** Statements that destroy data; `DELETE FROM t` and `UPDATE t SET …` count only without a WHERE clause, MongoDB's `deleteMany({})` only with an empty filter. */
const DESTRUCTIVE_STATEMENT =
  /\b(?:DROP\s+(?:DATABASE|SCHEMA|TABLE)\b|TRUNCATE\b|DELETE\s+FROM\s+[\w."`[\]]+\s*(?:;|$|["'])|UPDATE\s+[\w."`[\]]+\s+SET\s+(?:(?!\bWHERE\b)[^;])*(?:;|$)|dropDatabase\s*\(|\.(?:deleteMany|remove)\s*\(\s*\{\s*\}\s*\)|\.drop\s*\(\s*\)|FLUSH(?:ALL|DB)\b)/i;
/** MCP servers and tools that speak to a database. */
const DATABASE_TOOL = /sql|postgres|\bpg|mysql|maria|sqlite|(?:^|_)db|database|supabase|neon|planetscale|mongo|redis|clickhouse|snowflake|bigquery|duckdb/i;
const RUNNERS = new Set(['npx', 'pnpx', 'bunx']);
/** The programs resetCommand names, and the runners they are started by; any other command resets only as `… manage.py flush`. */
const RESETTERS = new Set([...RUNNERS, 'dropdb', 'mysqladmin', 'prisma', 'rails', 'rake', 'django-admin', 'supabase']);
const QUERY_FIELDS = ['query', 'sql', 'statement', 'command'] as const;
/** Options that open a database read-only, so no statement can change it. */
const READ_ONLY_CLIENT = /(?:^|\s)-(?:readonly|safe)(?:\s|$)|(?:^|\s)--read-only(?:\s|$)/;
/** Options by which cloud and data CLIs take the statement they run (`aws athena start-query-execution --query-string`, `gcloud spanner databases execute-sql --sql`). */
const QUERY_OPTION = /^--(?:query(?:-string)?|sql|statement|execute)(?:=|$)/;

/** A destructive statement given to any program as its query option's value (`--sql 'DROP TABLE t'`, `--query-string=…`), or to `bq query`. */
function statementOption(segment: ShellSegment): string | null {
  const { argv } = segment;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.charCodeAt(0) !== 45 || !QUERY_OPTION.test(arg)) continue;
    const equals = arg.indexOf('=');
    const value = equals >= 0 ? arg.slice(equals + 1) : argv[i + 1];
    const statement = value ? destructiveStatement(value) : null;
    if (statement) return statement;
  }
  if (commandName(segment) === 'bq' && argv.includes('query', 1)) return destructiveStatement(argv.slice(argv.indexOf('query') + 1).join(' '));
  return null;
}

/** Framework commands that drop or reset a database. */
function resetCommand(segment: ShellSegment): string | null {
  // `npx prisma …` runs prisma.
  const runner = RUNNERS.has(commandName(segment)) ? segment.argv.findIndex((a, i) => i > 0 && !a.startsWith('-')) : 0;
  if (runner < 0) return null;
  const cmd = basename(segment.argv[runner] ?? '');
  const args = segment.argv.slice(runner + 1);
  if (cmd === 'dropdb') return 'dropdb';
  if (cmd === 'mysqladmin' && args.includes('drop')) return 'mysqladmin drop';
  if (cmd === 'prisma' && args[0] === 'migrate' && args[1] === 'reset') return 'prisma migrate reset';
  if (cmd === 'prisma' && args.includes('--force-reset')) return 'prisma db push --force-reset';
  // The local database is the project's to reset; `--linked` or `--db-url` is the remote one.
  if (cmd === 'supabase' && args[0] === 'db' && args[1] === 'reset' && args.some((a) => a === '--linked' || a.startsWith('--db-url'))) return 'supabase db reset (remote)';
  const task = args.find((a) => a === 'db:drop' || a === 'db:reset' || a === 'db:schema:load');
  if ((cmd === 'rails' || cmd === 'rake') && task) return `${cmd} ${task}`;
  if ((cmd === 'django-admin' || segment.argv.some((a) => basename(a) === 'manage.py')) && args.includes('flush')) return 'manage.py flush';
  return null;
}

function destructiveStatement(text: string): string | null {
  const match = DESTRUCTIVE_STATEMENT.exec(text);
  if (!match) return null;
  const statement = match[0].replace(/\s+/g, ' ').replace(/[;"'(]+$/, '').trim();
  // An UPDATE is named by its table only: its SET list can be long.
  return /^UPDATE/i.test(statement) ? `${statement.split(' SET ')[0]} SET … without WHERE` : statement;
}

function destruction(action: ParsedAction): string | null {
  if (action.command !== undefined) {
    const names = commandNames(action.segments);
    for (let i = 0; i < action.segments.length; i++) {
      const segment = action.segments[i]!;
      if (!RESETTERS.has(names[i]!) && !segment.argv.includes('flush', 1)) continue;
      const reset = resetCommand(segment);
      if (reset) return reset;
    }
    // The statement may sit in an argument, a here-document or a pipe into the client: look at the whole line.
    // `sqlite3 -readonly`, `duckdb -readonly`, `-safe`: the client itself refuses to change the database.
    const client = positionsRunning(action.segments, DATABASE_CLIENTS).find((i) => !READ_ONLY_CLIENT.test(action.segments[i]!.argv.slice(1).join(' ')));
    const statement = client !== undefined ? destructiveStatement(action.command) : null;
    if (statement) return `${statement} through ${names[client!]}`;
    // Other programs run a statement only when it is given as their query.
    if (!/\b(?:DROP|TRUNCATE|DELETE|UPDATE|dropDatabase|FLUSH|remove)/i.test(action.command)) return null;
    for (let i = 0; i < action.segments.length; i++) {
      const option = statementOption(action.segments[i]!);
      if (option) return `${option} through ${names[i]}`;
    }
    return null;
  }
  if (!action.mcp || !(DATABASE_TOOL.test(action.mcp.server) || DATABASE_TOOL.test(action.mcp.tool) || typeof action.input['sql'] === 'string')) return null;
  for (const field of QUERY_FIELDS) {
    const text = action.input[field];
    const statement = typeof text === 'string' ? destructiveStatement(text) : null;
    if (statement) return `${statement} through ${action.tool}`;
  }
  return null;
}

export const databaseDestructionRule = builtInRule({
  name: 'database_destruction',
  description: 'DROP, TRUNCATE, DELETE or UPDATE without WHERE, or a database reset, by a client or a database MCP tool, needs approval.',
  reads: 'action',
  check({ action }) {
    const what = destruction(action);
    if (!what) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['data_loss', 'irreversible'],
      reason: `${what} permanently destroys data. A person must approve it.`,
      alternative: "If you need an empty database for tests, use a throwaway database or the project's migrations against a local one.",
    };
  },
});
