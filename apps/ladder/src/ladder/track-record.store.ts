import { Injectable } from '@nestjs/common';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { LADDER_RECORD_BUCKET } from '@warden/contracts';
import { BusConnection, TransientError } from '@warden/messaging';
import type { LadderStep } from '../domain/automation-ladder.js';
import { CorruptTrackRecordError, parseTrackRecord, type TrackRecord } from '../domain/track-record.js';
import { LadderMetrics } from './ladder-metrics.js';

const MAX_ATTEMPTS = 50;

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
 * read-decide-write with compare-and-set on the key's revision, decided again on the fresh record when
 * another writer came first.
 */
@Injectable()
export class TrackRecordStore {
  private kv?: Promise<KV>;

  constructor(
    private readonly bus: BusConnection,
    private readonly metrics: LadderMetrics,
  ) {}

  async read(agentId: string): Promise<StoredRecord | undefined> {
    const kv = await this.bucket();
    const entry = await transient(() => kv.get(agentId));
    if (!entry || entry.operation !== 'PUT') return undefined;
    return { record: parseTrackRecord(agentId, entry.string()), revision: entry.revision };
  }

  /**
   * Applies `decide` to the agent's record (a new one from `create` when it has none) and stores the
   * result when the step was applied. Duplicates and rejections write nothing.
   */
  async apply(agentId: string, decide: (record: TrackRecord) => LadderStep, create: () => TrackRecord): Promise<StoredStep> {
    const kv = await this.bucket();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const stored = await this.read(agentId);
      const step = decide(stored?.record ?? create());
      if (step.outcome !== 'applied') return { step, created: false };
      const value = JSON.stringify(step.record);
      try {
        if (stored) await kv.update(agentId, value, stored.revision);
        else await kv.create(agentId, value);
        return { step, created: !stored };
      } catch (error) {
        if (!isConflict(error)) throw asTransient(error);
        this.metrics.conflict();
        // Another replica wrote first: back off a little, with jitter, so that the writers spread out.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
      }
    }
    throw new TransientError(`the track record of ${agentId} kept changing under ${MAX_ATTEMPTS} attempts to update it`);
  }

  private bucket(): Promise<KV> {
    this.kv ??= this.open().catch((error: unknown) => {
      // Not kept: the next message tries again, e.g. once `warden provision` created the bucket.
      this.kv = undefined;
      throw new TransientError(`KV bucket ${LADDER_RECORD_BUCKET} unavailable (run \`warden provision\`): ${(error as Error).message}`, { cause: error });
    });
    return this.kv;
  }

  private async open(): Promise<KV> {
    const kv = await new Kvm(this.bus.nc).open(LADDER_RECORD_BUCKET);
    await kv.status();
    return kv;
  }
}

function isConflict(error: unknown): boolean {
  if (error instanceof JetStreamApiError) {
    return error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown;
  }
  return error instanceof Error && /wrong last sequence/i.test(error.message);
}

/** NATS failures mean the bus is unreachable or busy: the message is fine and is retried. */
function asTransient(error: unknown): Error {
  if (error instanceof CorruptTrackRecordError || error instanceof TransientError) return error;
  return new TransientError(`KV bucket ${LADDER_RECORD_BUCKET}: ${(error as Error).message}`, { cause: error });
}

async function transient<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asTransient(error);
  }
}
