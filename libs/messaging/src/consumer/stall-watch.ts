import type { ConsumerInfo, JetStreamClient, JetStreamManager } from '@nats-io/jetstream';

/** How often the idle consumers of a connection are checked for a lost pull. */
export const STALL_CHECK_MS = 10_000;

/** A consumer the watch looks after. */
export interface WatchedConsumer {
  readonly spec: { stream: string; name: string };
  /** True when nothing arrived since the last check (the consumer then remembers this check). */
  idleSinceLastCheck(): boolean;
  /** What the server says of the consumer, for an idle one: it reopens itself when its pull was lost. */
  judge(info: ConsumerInfo): void;
}

/**
 * Checks the idle consumers of one connection together: one consumer list per stream every interval
 * instead of one info request per consumer (a service owns dozens of consumers, and an idle suite made
 * most of its requests here).
 */
export class StallWatch {
  private static readonly byConnection = new WeakMap<JetStreamClient, StallWatch>();
  private readonly members = new Set<WatchedConsumer>();
  private timer?: NodeJS.Timeout;
  private manager?: Promise<JetStreamManager>;

  private constructor(private readonly js: JetStreamClient) {}

  /** The watch of this connection's consumers. */
  static for(js: JetStreamClient): StallWatch {
    let watch = StallWatch.byConnection.get(js);
    if (!watch) StallWatch.byConnection.set(js, (watch = new StallWatch(js)));
    return watch;
  }

  add(member: WatchedConsumer): void {
    this.members.add(member);
    if (!this.timer) {
      this.timer = setInterval(() => void this.check(), STALL_CHECK_MS);
      this.timer.unref();
    }
  }

  remove(member: WatchedConsumer): void {
    this.members.delete(member);
    if (this.members.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** One round: the idle consumers, grouped by stream, judged on one listing of each stream's consumers. */
  async check(): Promise<void> {
    const idle = new Map<string, WatchedConsumer[]>();
    for (const member of this.members) {
      if (!member.idleSinceLastCheck()) continue;
      const list = idle.get(member.spec.stream) ?? [];
      list.push(member);
      idle.set(member.spec.stream, list);
    }
    for (const [stream, members] of idle) {
      let manager: JetStreamManager;
      try {
        manager = await (this.manager ??= this.js.jetstreamManager());
      } catch {
        // The bus is away: the reconnect reopens the consumers, or the next round judges them.
        this.manager = undefined;
        return;
      }
      const infos = new Map<string, ConsumerInfo>();
      try {
        for await (const info of manager.consumers.list(stream)) infos.set(info.name, info);
      } catch {
        // A stream electing its leader may not list: each consumer is asked on its own, as it can be.
        infos.clear();
      }
      for (const member of members) {
        const info = infos.get(member.spec.name) ?? (await manager.consumers.info(stream, member.spec.name).catch(() => undefined));
        if (info) member.judge(info);
      }
    }
  }
}
