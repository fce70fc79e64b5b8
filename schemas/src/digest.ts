/**
 * SHA-256 helpers; every digest is written `sha256:<hex>`.
 * @module
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Digest of bytes or a string (UTF-8). */
export function sha256(data: string | Uint8Array): `sha256:${string}` {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** Digest of a readable stream's bytes. */
export async function sha256Stream(stream: AsyncIterable<Uint8Array | string>): Promise<`sha256:${string}`> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk);
  return `sha256:${hash.digest('hex')}`;
}

/** Digest of a file's bytes, streamed. */
export function sha256File(file: string): Promise<`sha256:${string}`> {
  return sha256Stream(createReadStream(file));
}
