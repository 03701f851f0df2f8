import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_MAILBOX_BUCKET, controlMailboxKey, createMessage, publishSubject, type ControlMailbox, type MessageType, type PayloadOf } from '@warden/contracts';
import { ServiceProcess, WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection, RecordStore } from '@warden/messaging';
import { BusRecorder, eventually, TestNatsServer } from '@warden/testing';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');
const encoder = new TextEncoder();

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `warden` command with `stdin` piped in, as Claude Code runs a hook. */
export function runWarden(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string; cwd?: string } = {}): Promise<Run> {
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WARDEN, ...args], { env: { ...inherited, NO_COLOR: '1', ...options.env }, cwd: options.cwd ?? WORKSPACE_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(options.stdin ?? '');
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Takes from agent users the permission to read their own stored control messages (a direct get of
 * their sessions' records in the control mailbox, see libs/sdk/src/stored-controls.ts), as a server
 * configured before that permission existed would have it: the rendered nats.conf is changed and the
 * server restarted on the same store.
 */
export async function revokeControlReads(nats: TestNatsServer, agents: string[]): Promise<void> {
  if (!agents.length) return;
  const config = readFileSync(nats.configPath, 'utf8');
  let patched = config;
  for (const agent of agents) {
    const grant = `, "$JS.API.DIRECT.GET.KV_warden_controls.$KV.warden_controls.${agent}.>"`;
    if (!patched.includes(grant)) throw new Error(`nats.conf has no control-read permission for ${agent} to revoke`);
    patched = patched.replace(grant, '');
  }
  await nats.kill();
  writeFileSync(nats.configPath, patched);
  await nats.start();
}

/** What a hook call came to, whichever transport carried it: Claude Code's answer, or a refusal of the call itself. */
export type HookReply = { answer: Record<string, unknown> | null } | { refused: number; reason: string };

/** Per call: the environment of the command hook, the query and headers of the HTTP hook. */
export interface CallOptions {
  env?: NodeJS.ProcessEnv;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * One way Claude Code reaches Warden: `command` runs the built `warden hook` with the payload on
 * stdin, `http` POSTs it to the gateway with the agent's token.
 */
export interface Transport {
  name: 'command' | 'http';
  call(payload: unknown, options?: CallOptions): Promise<HookReply>;
}

/** The command hook's run as a reply: exit 0 answers (stdout JSON or nothing), exit 2 refuses with stderr. */
export function replyOf(run: Run): HookReply {
  if (run.code === 0) return { answer: run.stdout ? (JSON.parse(run.stdout) as Record<string, unknown>) : null };
  return { refused: run.code, reason: run.stderr };
}

/** nats-server, the reviewer and the gate as processes, and a service connection that records the bus. */
export class HookSuite {
  readonly services: ServiceProcess[] = [];
  bus!: BusConnection;
  recorder!: BusRecorder;

  private constructor(readonly nats: TestNatsServer) {}

  /** `readControl`: the agents given the permission to read their stored control messages (default all); `env`: the services' extra settings. */
  static async start(agents: string[], apps: string[] = ['reviewer', 'gate'], readControl: string[] = agents, env: Record<string, string> = {}): Promise<HookSuite> {
    const nats = await TestNatsServer.start({ partitions: 2, agents });
    await revokeControlReads(nats, agents.filter((agent) => !readControl.includes(agent)));
    const suite = new HookSuite(nats);
    try {
      for (const app of apps) {
        suite.services.push(await ServiceProcess.start({ app, nats: nats.service, partitions: 2, env: { LOG_LEVEL: 'warn', ...env }, readyTimeoutMs: 60_000 }));
      }
      suite.bus = await BusConnection.open(nats.service);
      suite.recorder = await BusRecorder.start(suite.bus.nc, 'warden.>');
    } catch (error) {
      await suite.stop();
      throw error;
    }
    return suite;
  }

  /** The hook transports for an agent: the command hook with `env`, the HTTP hook with the agent's token. */
  transports(agentId: string, env: () => NodeJS.ProcessEnv): Transport[] {
    const command: Transport = {
      name: 'command',
      call: async (payload, options = {}) =>
        replyOf(await runWarden(['hook'], { env: { ...env(), ...options.env }, stdin: typeof payload === 'string' ? payload : JSON.stringify(payload) })),
    };
    const http: Transport = {
      name: 'http',
      call: async (payload, options = {}) => {
        const query = new URLSearchParams(options.query ?? {}).toString();
        const response = await fetch(`${this.service('gateway').url}/hooks/claude-code${query ? `?${query}` : ''}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${agentId}.${this.nats.agent(agentId).password}`, ...options.headers },
          body: typeof payload === 'string' ? payload : JSON.stringify(payload),
        });
        const text = await response.text();
        if (response.status !== 200) return { refused: response.status, reason: text };
        return { answer: text ? (JSON.parse(text) as Record<string, unknown>) : null };
      },
    };
    return [command, http];
  }

  service(app: string): ServiceProcess {
    return this.services.find((s) => s.app === app)!;
  }

  /** Publishes a message of the suite for a session (control.issued, pattern.detected, ...), as the services would. */
  async publish<T extends MessageType>(type: T, channel: Parameters<typeof publishSubject>[0], agentId: string, sessionId: string, payload: PayloadOf<T>): Promise<void> {
    const message = createMessage(type, { agent_id: agentId, session_id: sessionId, payload } as Parameters<typeof createMessage<T>>[1]);
    await this.bus.js.publish(publishSubject(channel, agentId, sessionId), encoder.encode(JSON.stringify(message)), { msgID: message.id });
  }

  /**
   * Sends a control message as the services do, and waits until the intervention controller has put it
   * in the session's mailbox, where an agent process that was not listening reads it (the suite must run
   * the intervention controller).
   */
  async publishControl(agentId: string, sessionId: string, payload: PayloadOf<'control.issued'>): Promise<void> {
    await this.publish('control.issued', 'control', agentId, sessionId, payload);
    const mailboxes = new RecordStore<ControlMailbox>(this.bus.nc, CONTROL_MAILBOX_BUCKET);
    await eventually(`control ${payload.control_id} in the mailbox of ${sessionId}`, async () => {
      const stored = await mailboxes.get(controlMailboxKey(agentId, sessionId));
      return stored?.value.controls.some((c) => c.message.payload.control_id === payload.control_id) ?? false;
    });
  }

  async stop(): Promise<void> {
    this.recorder?.stop();
    await this.bus?.close();
    for (const service of this.services) await service.stop();
    await this.nats.stop();
  }
}
