/**
 * Keeps the last `cap` bytes of a stream and counts every byte seen.
 * @module
 */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte seen, kept or not. */
  total = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.kept - (this.chunks[0]?.length ?? 0) >= this.cap && this.chunks.length > 1) {
      this.kept -= this.chunks.shift()!.length;
    }
  }

  /** True when bytes were dropped. */
  get truncated(): boolean {
    return this.total > this.cap;
  }

  /** The kept tail as text (at most `cap` bytes, cut at the start). */
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.cap)).toString('utf8');
  }
}
