import { Injectable } from '@nestjs/common';
import { LADDER_RECORD_BUCKET } from '@warden/contracts';
import { BusConnection, RecordStore } from '@warden/messaging';
import { parseTrackRecord, type LadderStep, type TrackRecord } from '@warden/ladder';
import { LadderMetrics } from './ladder-metrics.js';

/** Agents whose record a replica keeps a copy of: about a megabyte at the ladder's usual record sizes. */
const REMEMBERED_RECORDS = 1_000;

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
  /** The record of each agent as this replica last read or wrote it, the longest unused forgotten first. */
  private readonly copies = new Map<string, TrackRecord>();

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

  /**
   * A step that leaves the record unchanged on the copy this replica last stored or read is taken from
   * the copy, without reading the store: one KV read less for most decisions. The ladder says
   * `unchanged` only from what stays true of a stored record once it holds (a session already seen
   * deciding and not ended), so a copy another replica has since moved on from gives the same answer;
   * every other step is decided on the record read fresh, and a write is a compare-and-set as before.
   */
  private async applyNow(agentId: string, decide: (record: TrackRecord) => LadderStep, create: () => TrackRecord): Promise<StoredStep> {
    const copy = this.copies.get(agentId);
    if (copy) {
      const fromCopy = decide(copy);
      if (fromCopy.outcome === 'unchanged') return { step: fromCopy, created: false };
    }
    let step: LadderStep | undefined;
    let created = false;
    const updated = await this.records.update(
      agentId,
      (stored) => {
        created = stored === undefined;
        step = decide(stored ?? create());
        return step.outcome === 'applied' ? step.record : undefined;
      },
      () => this.metrics.conflict(),
    );
    if (updated.value) this.remember(agentId, updated.value);
    return { step: step!, created: created && step!.outcome === 'applied' };
  }

  private remember(agentId: string, record: TrackRecord): void {
    this.copies.delete(agentId);
    this.copies.set(agentId, record);
    if (this.copies.size > REMEMBERED_RECORDS) this.copies.delete(this.copies.keys().next().value!);
  }
}
