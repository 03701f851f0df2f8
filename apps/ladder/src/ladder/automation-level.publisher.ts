import { Injectable } from '@nestjs/common';
import { Kvm, type KV } from '@nats-io/kv';
import { AUTOMATION_LEVEL_BUCKET, parseAutomationLevel, type AutomationLevelRecord } from '@warden/contracts';
import { BusConnection, TransientError } from '@warden/messaging';
import { TrackRecordStore } from './track-record.store.js';

const MAX_ROUNDS = 10;

/**
 * Materialises each agent's level in `warden_automation_levels`, where the reviewer watches it and
 * applies isAllowedAtLevel on its hot path.
 *
 * The track record is the source of truth. Two replicas that changed one agent's level a moment apart
 * may write this bucket in the opposite order, so a writer reads the record again after writing and
 * writes once more when it has moved on: the last writer always ends with the record's level.
 */
@Injectable()
export class AutomationLevelPublisher {
  private kv?: Promise<KV>;

  constructor(
    private readonly bus: BusConnection,
    private readonly records: TrackRecordStore,
  ) {}

  async sync(agentId: string): Promise<void> {
    const kv = await this.bucket();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const source = await this.records.read(agentId);
      if (!source) return;
      try {
        const entry = await kv.get(agentId);
        const published = entry?.operation === 'PUT' ? parseAutomationLevel(entry.value) : null;
        if (published?.level === source.record.level) return;
        const record: AutomationLevelRecord = { agent_id: agentId, level: source.record.level, updated_at: source.record.levelChangedAt };
        await kv.put(agentId, JSON.stringify(record));
      } catch (error) {
        throw new TransientError(`KV bucket ${AUTOMATION_LEVEL_BUCKET}: ${(error as Error).message}`, { cause: error });
      }
    }
    throw new TransientError(`the level of ${agentId} kept changing while it was being published`);
  }

  private bucket(): Promise<KV> {
    this.kv ??= (async () => {
      const kv = await new Kvm(this.bus.nc).open(AUTOMATION_LEVEL_BUCKET);
      await kv.status();
      return kv;
    })().catch((error: unknown) => {
      this.kv = undefined;
      throw new TransientError(`KV bucket ${AUTOMATION_LEVEL_BUCKET} unavailable (run \`warden provision\`): ${(error as Error).message}`, { cause: error });
    });
    return this.kv;
  }
}
