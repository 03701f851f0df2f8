import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { OPERATOR_BUCKET, OPERATOR_SESSION_BUCKET, OPERATOR_SESSION_TTL_MS } from '@warden/contracts';
import { buildTopology } from '@warden/messaging';
import { isOperatorId, isOperatorRole, type OperatorRole } from './roles.js';
import {
  API_TOKEN_PREFIX,
  generatePassword,
  hashPassword,
  newApiToken,
  newSessionToken,
  passwordProblem,
  SESSION_TOKEN_PREFIX,
  tokenDigest,
  verifyPassword,
} from './secrets.js';

/** An authenticated operator: who, and with which role (read from the store on every check). */
export interface Operator {
  id: string;
  role: OperatorRole;
}

/** `operator.<id>` in the operators bucket. */
interface StoredOperator {
  id: string;
  role: OperatorRole;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
  created_by: string;
}

/** `token.<sha256>` in the operators bucket: an API token. */
interface StoredToken {
  operator_id: string;
  label: string;
  created_at: string;
  expires_at: string | null;
}

/** `<sha256>` in the sessions bucket: a console login. */
interface StoredSession {
  operator_id: string;
  created_at: string;
  expires_at: string;
}

export interface OperatorSummary extends Operator {
  created_at: string;
  created_by: string;
  has_password: boolean;
  tokens: { label: string; created_at: string; expires_at: string | null }[];
}

export type TokenCheck = { ok: true; operator: Operator; kind: 'api' | 'session' } | { ok: false; reason: 'invalid_token' | 'session_expired' };

export class OperatorStoreError extends Error {}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Operators and their credentials in JetStream KV (OPERATOR_BUCKET, OPERATOR_SESSION_BUCKET): roles,
 * scrypt password hashes, SHA-256 digests of API and session tokens. Only service users can read these
 * buckets (operator and agent NATS users have no JetStream API access to them). Every check reads the
 * store, so a removed operator, a changed role or a revoked token takes effect on the next request.
 */
export class OperatorStore {
  private buckets?: Promise<{ operators: KV; sessions: KV }>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async add(id: string, role: OperatorRole, options: { password?: string; createdBy: string }): Promise<{ password: string }> {
    if (!isOperatorId(id)) throw new OperatorStoreError(`operator id "${id}" must be 1-64 letters, digits, - or _ (starting with a letter or digit)`);
    if (!isOperatorRole(role)) throw new OperatorStoreError(`role must be viewer, approver or admin (got "${String(role)}")`);
    const password = options.password ?? generatePassword();
    const problem = passwordProblem(password);
    if (problem) throw new OperatorStoreError(problem);
    const at = this.now().toISOString();
    const record: StoredOperator = { id, role, password_hash: await hashPassword(password), created_at: at, updated_at: at, created_by: options.createdBy };
    const { operators } = await this.open();
    try {
      await operators.create(`operator.${id}`, encode(record));
    } catch (error) {
      if (/wrong last sequence|key exists/i.test((error as Error).message)) throw new OperatorStoreError(`operator ${id} already exists`);
      throw error;
    }
    return { password };
  }

  async get(id: string): Promise<Operator | null> {
    const stored = await this.operatorRecord(id);
    return stored ? { id: stored.id, role: stored.role } : null;
  }

  async list(): Promise<OperatorSummary[]> {
    const { operators } = await this.open();
    const summaries = new Map<string, OperatorSummary>();
    const tokens: StoredToken[] = [];
    for (const key of await keysOf(operators)) {
      const value = await read<StoredOperator & StoredToken>(operators, key);
      if (!value) continue;
      if (key.startsWith('operator.')) {
        summaries.set(value.id, { id: value.id, role: value.role, created_at: value.created_at, created_by: value.created_by, has_password: !!value.password_hash, tokens: [] });
      } else if (key.startsWith('token.')) tokens.push(value);
    }
    for (const token of tokens) summaries.get(token.operator_id)?.tokens.push({ label: token.label, created_at: token.created_at, expires_at: token.expires_at });
    return [...summaries.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  async setRole(id: string, role: OperatorRole): Promise<void> {
    if (!isOperatorRole(role)) throw new OperatorStoreError(`role must be viewer, approver or admin (got "${String(role)}")`);
    await this.update(id, (record) => ({ ...record, role }));
  }

  /** Sets a new password (generated when none is given) and ends the operator's console logins. */
  async setPassword(id: string, password = generatePassword()): Promise<string> {
    const problem = passwordProblem(password);
    if (problem) throw new OperatorStoreError(problem);
    const hash = await hashPassword(password);
    await this.update(id, (record) => ({ ...record, password_hash: hash }));
    await this.endSessions(id);
    return password;
  }

  /** Removes an operator with every token and login of theirs. */
  async remove(id: string): Promise<boolean> {
    const { operators } = await this.open();
    if (!(await this.operatorRecord(id))) return false;
    await operators.purge(`operator.${id}`);
    await this.revokeTokens(id);
    await this.endSessions(id);
    return true;
  }

  /** A new API token for the operator; returned once, stored as its digest. */
  async issueToken(id: string, options: { label?: string; ttlMs?: number } = {}): Promise<string> {
    if (!(await this.operatorRecord(id))) throw new OperatorStoreError(`no operator ${id}`);
    const token = newApiToken();
    const now = this.now();
    const record: StoredToken = {
      operator_id: id,
      label: (options.label ?? 'api').slice(0, 128),
      created_at: now.toISOString(),
      expires_at: options.ttlMs ? new Date(now.getTime() + options.ttlMs).toISOString() : null,
    };
    const { operators } = await this.open();
    await operators.put(`token.${tokenDigest(token)}`, encode(record));
    return token;
  }

  /** Revokes every API token of an operator; returns how many. */
  async revokeTokens(id: string): Promise<number> {
    const { operators } = await this.open();
    let revoked = 0;
    for (const key of await keysOf(operators, 'token.>')) {
      if ((await read<StoredToken>(operators, key))?.operator_id !== id) continue;
      await operators.purge(key);
      revoked++;
    }
    return revoked;
  }

  /** Checks a token (API or session) and returns its operator, with the role stored now. */
  async authenticate(token: string): Promise<TokenCheck> {
    const { operators, sessions } = await this.open();
    const digest = tokenDigest(token);
    let stored: StoredToken | StoredSession | null = null;
    let kind: 'api' | 'session';
    if (token.startsWith(SESSION_TOKEN_PREFIX)) {
      kind = 'session';
      stored = await read<StoredSession>(sessions, digest);
    } else if (token.startsWith(API_TOKEN_PREFIX)) {
      kind = 'api';
      stored = await read<StoredToken>(operators, `token.${digest}`);
    } else return { ok: false, reason: 'invalid_token' };
    if (!stored) return { ok: false, reason: kind === 'session' ? 'session_expired' : 'invalid_token' };
    if (stored.expires_at && Date.parse(stored.expires_at) <= this.now().getTime()) return { ok: false, reason: kind === 'session' ? 'session_expired' : 'invalid_token' };
    const operator = await this.get(stored.operator_id);
    return operator ? { ok: true, operator, kind } : { ok: false, reason: 'invalid_token' };
  }

  /** A console login: the password checked against its scrypt hash; a session token on success. */
  async login(id: string, password: string): Promise<{ ok: true; token: string; operator: Operator; expiresAt: string } | { ok: false }> {
    const stored = isOperatorId(id) ? await this.operatorRecord(id) : null;
    // Without an operator the hash is still computed, so that a wrong id takes as long as a wrong password.
    const matches = await verifyPassword(password, stored?.password_hash ?? (await unusable()));
    if (!stored?.password_hash || !matches) return { ok: false };
    const token = newSessionToken();
    const now = this.now();
    const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_TTL_MS).toISOString();
    const { sessions } = await this.open();
    await sessions.put(tokenDigest(token), encode({ operator_id: id, created_at: now.toISOString(), expires_at: expiresAt } satisfies StoredSession));
    return { ok: true, token, operator: { id: stored.id, role: stored.role }, expiresAt };
  }

  async logout(token: string): Promise<void> {
    if (!token.startsWith(SESSION_TOKEN_PREFIX)) return;
    const { sessions } = await this.open();
    await sessions.purge(tokenDigest(token));
  }

  private async endSessions(id: string): Promise<void> {
    const { sessions } = await this.open();
    for (const key of await keysOf(sessions)) {
      if ((await read<StoredSession>(sessions, key))?.operator_id === id) await sessions.purge(key);
    }
  }

  private async operatorRecord(id: string): Promise<StoredOperator | null> {
    if (!isOperatorId(id)) return null;
    const { operators } = await this.open();
    return read<StoredOperator>(operators, `operator.${id}`);
  }

  private async update(id: string, change: (record: StoredOperator) => StoredOperator): Promise<void> {
    const { operators } = await this.open();
    const entry = isOperatorId(id) ? await operators.get(`operator.${id}`) : null;
    if (!entry || entry.operation !== 'PUT') throw new OperatorStoreError(`no operator ${id}`);
    const next = { ...change(JSON.parse(decoder.decode(entry.value)) as StoredOperator), updated_at: this.now().toISOString() };
    await operators.update(`operator.${id}`, encode(next), entry.revision);
  }

  /** Opens both buckets, creating them as the topology describes when provisioning has not. */
  private open(): Promise<{ operators: KV; sessions: KV }> {
    this.buckets ??= Promise.all([openBucket(this.nc, OPERATOR_BUCKET), openBucket(this.nc, OPERATOR_SESSION_BUCKET)])
      .then(([operators, sessions]) => ({ operators, sessions }))
      .catch((error: unknown) => {
        this.buckets = undefined;
        throw new OperatorStoreError(`the operator store is unavailable: ${(error as Error).message}`);
      });
    return this.buckets;
  }
}

/** A valid hash of a random password nobody knows: what a login of an unknown operator is checked against. */
let unusableHash: Promise<string> | undefined;
const unusable = () => (unusableHash ??= hashPassword(generatePassword()));

const encode = (value: unknown) => encoder.encode(JSON.stringify(value));

async function read<T>(kv: KV, key: string): Promise<T | null> {
  const entry = await kv.get(key);
  if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
  try {
    return JSON.parse(decoder.decode(entry.value)) as T;
  } catch {
    return null;
  }
}

async function keysOf(kv: KV, filter = '>'): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of await kv.keys(filter)) keys.push(key);
  return keys;
}

async function openBucket(nc: NatsConnection, name: string): Promise<KV> {
  const kvm = new Kvm(nc);
  try {
    const kv = await kvm.open(name);
    await kv.status();
    return kv;
  } catch {
    const spec = buildTopology().keyValues.find((b) => b.bucket === name)!;
    return kvm.create(name, { history: spec.history, description: spec.description, ...(spec.ttlMs ? { ttl: spec.ttlMs } : {}) });
  }
}
