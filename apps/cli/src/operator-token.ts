import { readFileSync } from 'node:fs';
import { UsageError } from './command.js';

export const TOKEN_HELP = `Authentication: an operator's API token (\`warden operator token <id>\` prints one) in
WARDEN_OPERATOR_TOKEN, or in a file given with --token-file (not on the command line, where other
users and the shell history would see it).`;

/** The operator's API token: --token-file, else WARDEN_OPERATOR_TOKEN; a usage error without one. */
export function operatorToken(values: Record<string, unknown>): string {
  const file = values['token-file'] as string | undefined;
  let token: string | undefined;
  if (file) {
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new UsageError(`cannot read --token-file ${file}: ${(error as Error).message}`);
    }
  } else token = process.env.WARDEN_OPERATOR_TOKEN?.trim();
  if (!token) throw new UsageError('authenticate with an API token in WARDEN_OPERATOR_TOKEN or --token-file (`warden operator token <id>` issues one)');
  return token;
}
