import { Injectable } from '@nestjs/common';
import { CONTROL_MAILBOX_BUCKET, CONTROL_MAILBOX_KEPT, controlMailboxKey, type ControlMailbox, type MessageOf } from '@warden/contracts';
import { BusConnection, RecordStore } from '@warden/messaging';

/**
 * Keeps each session's recent control messages (the gate's and this controller's) in the bucket agents
 * read their own record of (warden_controls): what a process that was not listening missed. Applied in
 * stream order per session; a redelivered message is recognised by its sequence and changes nothing.
 */
@Injectable()
export class ControlMailboxes {
  private readonly store: RecordStore<ControlMailbox>;

  constructor(bus: BusConnection) {
    this.store = new RecordStore<ControlMailbox>(bus.nc, CONTROL_MAILBOX_BUCKET);
  }

  async add(message: MessageOf<'control.issued'>, sequence: number): Promise<void> {
    await this.store.update(controlMailboxKey(message.agent_id, message.session_id), (current) => {
      const controls = current?.controls ?? [];
      if (controls.some((c) => c.sequence === sequence)) return undefined;
      return { controls: [...controls, { sequence, message }].sort((a, b) => a.sequence - b.sequence).slice(-CONTROL_MAILBOX_KEPT) };
    });
  }
}
