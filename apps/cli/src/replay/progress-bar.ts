/** A one-line progress bar on stderr, drawn only on a terminal (quiet in pipes and logs). */
export class ProgressBar {
  private readonly enabled: boolean;
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr, enabled = stream.isTTY === true) {
    this.enabled = enabled;
  }

  update(done: number, total: number, label: string): void {
    if (!this.enabled) return;
    const width = 24;
    const filled = total ? Math.round((done / total) * width) : width;
    const columns = this.stream.columns ?? 80;
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}`;
    this.stream.write(`\r\u001b[2K${line.slice(0, columns - 1)}`);
    this.drawn = true;
  }

  clear(): void {
    if (this.enabled && this.drawn) this.stream.write('\r\u001b[2K');
    this.drawn = false;
  }
}
