import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NatsSettings } from '@warden/messaging';
import { UsageError } from '../command.js';
import { HOOK_DEFAULTS } from '../hook/hook-settings.js';

/** Who a replay connects as: the agent it replays as, and an operator that watches the session. */
export interface ReplayConnection {
  agent: { servers: string; agentId: string; password?: string };
  observer: NatsSettings;
}

export const REPLAY_AGENT_DEFAULT = 'demo-agent';

interface CredentialsFile {
  operator?: { user: string; password: string };
  agents?: Record<string, string>;
}

/**
 * Resolves the connection of `warden replay`: --nats-url / WARDEN_NATS_URL / NATS_URL; the agent from
 * --agent / WARDEN_AGENT_ID with WARDEN_AGENT_PASSWORD; the operator from NATS_USER / NATS_PASSWORD;
 * missing passwords from the credentials file `warden up` writes (--credentials, default
 * ./.warden/credentials.json when present).
 */
export function replayConnection(values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): ReplayConnection {
  const servers = (values['nats-url'] as string | undefined) || env.WARDEN_NATS_URL || env.NATS_URL || HOOK_DEFAULTS.servers;
  const agentId = (values.agent as string | undefined) || env.WARDEN_AGENT_ID || REPLAY_AGENT_DEFAULT;
  const path = (values.credentials as string | undefined) ?? (existsSync(resolve('.warden/credentials.json')) ? resolve('.warden/credentials.json') : undefined);
  let credentials: CredentialsFile = {};
  if (path) {
    try {
      credentials = JSON.parse(readFileSync(path, 'utf8')) as CredentialsFile;
    } catch (error) {
      throw new UsageError(`cannot read the credentials file ${path}: ${(error as Error).message}`);
    }
  }
  const password = env.WARDEN_AGENT_PASSWORD || credentials.agents?.[agentId];
  const user = env.NATS_USER || credentials.operator?.user;
  const operatorPassword = env.NATS_PASSWORD || credentials.operator?.password;
  return {
    agent: { servers, agentId, ...(password ? { password } : {}) },
    observer: { servers, ...(user ? { user } : {}), ...(operatorPassword ? { password: operatorPassword } : {}), name: 'warden-replay' },
  };
}
