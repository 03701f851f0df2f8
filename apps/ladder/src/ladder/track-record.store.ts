import { Injectable } from '@nestjs/common';
import { LADDER_RECORD_BUCKET } from '@warden/contracts';
import { BusConnection, RecordStore } from '@warden/messaging';
import { parseTrackRecord, type LadderStep, type TrackRecord } from '@warden/ladder';
import { LadderMetrics } from './ladder-metrics.js';

export interface StoredRecord {
  record: TrackRecord;
  revision: number;
}

export interface StoredStep {
  step: LadderStep;
  /** The agent had no record: this step created it. */
  created: boolean;
}

/**
 * The track records in the KV bucket `warden_ladder_records`, one JSON value per agent. Sessions of one
 * agent land on different partitions and so on different replicas, so every change is a
 * read-decide-write with compare-and-set, decided again on the fresh record when another writer came
 * first (the messaging library's record store). Within a replica the changes of one agent go one after
 * the other: handlers of its sessions on several partitions would otherwise all lose the compare-and-set
 * to each other, and an agent publishing many messages at once would slow every agent down.
 */
@Injectable()
export class TrackRecordStore {
  private readonly records: RecordStore<TrackRecord>;
  /** The last change queued per agent in this replica. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    bus: BusConnection,
    private readonly metrics: LadderMetrics,
  ) {
    this.records = new RecordStore(bus.nc, LADDER_RECORD_BUCKET, (text, agentId) => parseTrackRecord(agentId, text));
  }

  async read(agentId: string): Promise<StoredRecord | undefined> {
    const stored = await this.records.get(agentId);
    return stored && { record: stored.value, revision: stored.revision };
  }

  /**
   * Applies `decide` to the agent's record (a new one from `create` when it has none) and stores the
   * result when the step was applied. Duplicates and rejections write nothing.
   */
  apply(agentId: string, decide: (record: TrackRecord) => LadderStep, create: () => TrackRecord): Promise<StoredStep> {
    const previous = this.queues.get(agentId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.applyNow(agentId, decide, create));
    this.queues.set(agentId, next);
    const forget = () => {
      if (this.queues.get(agentId) === next) this.queues.delete(agentId);
    };
    next.then(forget, forget);
    return next;
  }

  private async applyNow(agentId: string, decide: (record: TrackRecord) => LadderStep, create: () => TrackRecord): Promise<StoredStep> {
    let step: LadderStep | undefined;
    let created = false;
    await this.records.update(
      agentId,
      (stored) => {
        created = stored === undefined;
        step = decide(stored ?? create());
        return step.outcome === 'applied' ? step.record : undefined;
      },
      () => this.metrics.conflict(),
    );
    return { step: step!, created: created && step!.outcome === 'applied' };
  }
}
