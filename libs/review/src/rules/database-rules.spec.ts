import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { databaseDestructionRule } from './database-rules.js';
import type { RuleContext } from './review-rule.js';

function context(tool: string, input: Record<string, unknown>): RuleContext {
  const action = parseAction({ kind: 'tool_use', tool, input }, '/work/app');
  return { action, session: new ReviewSession('agent-1', 's1', Date.now()), limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}
const bash = (command: string) => context('Bash', { command });

describe('database_destruction', () => {
  it.each([
    ['psql -c "DROP TABLE users"', 'DROP TABLE through psql'],
    ["mysql -u root -e 'truncate orders'", 'truncate through mysql'],
    ['sqlite3 app.db "DELETE FROM users;"', 'DELETE FROM users through sqlite3'],
    ['psql app <<SQL\nDROP DATABASE app;\nSQL', 'DROP DATABASE through psql'],
    ['echo "drop schema public cascade" | psql', 'drop schema through psql'],
    ['redis-cli FLUSHALL', 'FLUSHALL through redis-cli'],
    ['dropdb app_test', 'dropdb'],
    ['npx prisma migrate reset --force', 'prisma migrate reset'],
    ['bin/rails db:drop', 'rails db:drop'],
    ['python manage.py flush --noinput', 'manage.py flush'],
    ["mongosh shop --eval 'db.users.deleteMany({})'", '.deleteMany\\(\\{\\}\\) through mongosh'],
    ['mongo shop --eval "db.sessions.drop()"', '.drop\\(\\) through mongo'],
    ['supabase db reset --linked', 'supabase db reset \\(remote\\)'],
    // A statement given to a cloud or data CLI as its query.
    ["aws athena start-query-execution --query-string 'DROP TABLE foo'", 'DROP TABLE through aws'],
    ['gcloud spanner databases execute-sql orders --instance=prod --sql="TRUNCATE TABLE events"', 'TRUNCATE through gcloud'],
    ['aws redshift-data execute-statement --cluster-identifier c --sql "DELETE FROM users"', 'DELETE FROM users through aws'],
    ["bq query --use_legacy_sql=false 'DROP TABLE ds.events'", 'DROP TABLE through bq'],
  ])('needs approval for %s', (command, what) => {
    const finding = databaseDestructionRule.evaluate(bash(command));
    expect(finding).toMatchObject({ verdict: 'require_approval', score: 0.8, severity: 'high' });
    expect(finding?.reason).toMatch(new RegExp(`^${what}`));
  });

  it.each([
    ['mcp__postgres__query', { sql: 'DROP TABLE users' }],
    ['mcp__supabase__execute_sql', { project_id: 'p', query: 'TRUNCATE logs' }],
    ['mcp__warehouse__run', { sql: 'delete from events' }],
  ])('needs approval for %s', (tool, input) => {
    expect(databaseDestructionRule.evaluate(context(tool, input))?.verdict).toBe('require_approval');
  });

  it.each([
    ['Bash', { command: 'sqlite3 app.db "DELETE FROM users WHERE id = 3"' }],
    ['Bash', { command: 'psql -c "select * from users"' }],
    ['Bash', { command: 'grep -rn "DROP TABLE" migrations/' }],
    ['Bash', { command: 'npx prisma migrate dev' }],
    ['Bash', { command: "mongosh shop --eval 'db.users.deleteMany({ expired: true })'" }],
    ['Bash', { command: 'supabase db reset' }],
    ['Bash', { command: 'python3 -c "import pandas as pd; df = pd.read_csv(\'a.csv\'); print(df.drop())"' }],
    ['Bash', { command: "aws athena start-query-execution --query-string 'SELECT * FROM logs WHERE level = 1'" }],
    ['Bash', { command: 'grep -e "DROP TABLE" --line-number migrations/001.sql' }],
    ['mcp__postgres__query', { sql: 'SELECT 1' }],
    ['mcp__brave__search', { query: 'DROP TABLE syntax' }],
    ['Write', { file_path: 'migrations/002_down.sql', content: 'DROP TABLE users;' }],
  ])('allows %s %j', (tool, input) => {
    expect(databaseDestructionRule.evaluate(context(tool, input))).toBeNull();
  });
});

describe('database_destruction and read-only clients', () => {
  it.each(["sqlite3 -readonly app.db 'DROP TABLE users'", "duckdb -readonly warehouse.duckdb 'DELETE FROM events'", "sqlite3 -safe app.db 'DROP TABLE users'"])('leaves %s alone: the client refuses to change the database', (command) => {
    expect(databaseDestructionRule.evaluate(bash(command))).toBeNull();
  });

  it('still stops the same statement without the option', () => {
    expect(databaseDestructionRule.evaluate(bash("sqlite3 app.db 'DROP TABLE users'"))?.verdict).toBe('require_approval');
  });
});
