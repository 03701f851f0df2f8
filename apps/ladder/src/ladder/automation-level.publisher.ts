import { Injectable } from '@nestjs/common';
import { AUTOMATION_LEVEL_BUCKET, parseAutomationLevel, type AutomationLevelRecord } from '@warden/contracts';
import { BusConnection, RecordStore, TransientError } from '@warden/messaging';
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
  private readonly levels: RecordStore<AutomationLevelRecord | null>;

  constructor(
    bus: BusConnection,
    private readonly records: TrackRecordStore,
  ) {
    this.levels = new RecordStore(bus.nc, AUTOMATION_LEVEL_BUCKET, (text) => parseAutomationLevel(text));
  }

  async sync(agentId: string): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const source = await this.records.read(agentId);
      if (!source) return;
      const published = await this.levels.get(agentId);
      if (published?.value?.level === source.record.level) return;
      await this.levels.put(agentId, { agent_id: agentId, level: source.record.level, updated_at: source.record.levelChangedAt });
    }
    throw new TransientError(`the level of ${agentId} kept changing while it was being published`);
  }
}
