import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { JetStreamClient } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';

/** One file of a checkpoint: its content, or the fact that it did not exist. */
export interface SnapshotFile {
  path: string;
  deleted?: boolean;
  sha256?: string;
  /** base64 */
  content?: string;
}

/** What a checkpoint object holds. */
export interface Snapshot {
  version: 1;
  checkpoint_id: string;
  files: SnapshotFile[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The agent's checkpoint snapshots in its own JetStream object store bucket (one object per
 * checkpoint, a JSON document of the files' contents). Paths are kept as the agent gave them and
 * resolved against `root` when read or written.
 */
export class CheckpointStore {
  private store?: Promise<ObjectStore>;

  constructor(
    private readonly js: JetStreamClient,
    readonly bucket: string,
    private readonly root: string,
  ) {}

  /** Reads the files (a missing one is recorded as deleted) and stores the snapshot. */
  async save(key: string, checkpointId: string, paths: string[]): Promise<Snapshot> {
    const files: SnapshotFile[] = [];
    for (const path of [...new Set(paths)]) {
      try {
        const content = await readFile(this.resolve(path));
        files.push({ path, sha256: createHash('sha256').update(content).digest('hex'), content: content.toString('base64') });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        files.push({ path, deleted: true });
      }
    }
    const snapshot: Snapshot = { version: 1, checkpoint_id: checkpointId, files };
    await (await this.open()).putBlob({ name: key, description: `checkpoint ${checkpointId}` }, encoder.encode(JSON.stringify(snapshot)));
    return snapshot;
  }

  /** Restores a snapshot: writes every file it holds and deletes those it marks deleted. Returns the paths restored. */
  async restore(key: string): Promise<string[]> {
    const blob = await this.read(key);
    if (!blob) throw new Error(`checkpoint object ${key} is not in bucket ${this.bucket}`);
    const snapshot = JSON.parse(decoder.decode(blob)) as Snapshot;
    const restored: string[] = [];
    for (const file of snapshot.files) {
      const target = this.resolve(file.path);
      if (file.deleted) {
        await rm(target, { force: true });
      } else {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, Buffer.from(file.content ?? '', 'base64'));
      }
      restored.push(file.path);
    }
    return restored;
  }

  /**
   * An object of the agent's own bucket, read by direct gets: its description by subject, then its chunks
   * one after the other, checked against the object's digest. An agent manages no consumer (the object
   * store's own reader creates one), so that it can point none into Warden's subjects.
   */
  private async read(name: string): Promise<Uint8Array | null> {
    const info = await (await this.open()).info(name);
    if (!info || info.deleted) return null;
    const jsm = await this.js.jetstreamManager(false);
    const stream = `OBJ_${this.bucket}`;
    const chunks: Uint8Array[] = [];
    const hash = createHash('sha256');
    let sequence = 0;
    for (let i = 0; i < info.chunks; i++) {
      const chunk = await jsm.direct.getMessage(stream, { seq: sequence + 1, next_by_subj: `$O.${this.bucket}.C.${info.nuid}` });
      if (!chunk) throw new Error(`checkpoint object ${name} in bucket ${this.bucket} lacks chunk ${i + 1} of ${info.chunks}`);
      sequence = chunk.seq;
      chunks.push(chunk.data);
      hash.update(chunk.data);
    }
    const digest = `SHA-256=${hash.digest('base64url')}`;
    if (info.digest && info.digest.replace(/=+$/, '') !== digest.replace(/=+$/, '')) throw new Error(`checkpoint object ${name} in bucket ${this.bucket} is corrupt: its digest does not match`);
    return Buffer.concat(chunks);
  }

  private resolve(path: string): string {
    return isAbsolute(path) ? path : resolve(this.root, path);
  }

  /** Opens the bucket, which Warden provisions for the agent (`warden provision --agent <id>`). */
  private open(): Promise<ObjectStore> {
    this.store ??= new Objm(this.js).open(this.bucket).catch((error: unknown) => {
      this.store = undefined;
      throw new Error(
        `the checkpoint bucket ${this.bucket} is unavailable (${(error as Error).message}); Warden creates it for each agent it knows: \`warden provision --agent <agent id>\``,
      );
    });
    return this.store;
  }
}
