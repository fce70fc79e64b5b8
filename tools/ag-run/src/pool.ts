/**
 * Run independent tasks with at most `jobs` at a time, results in input order.
 * @module
 */

/** Map `items` through `fn` with at most `jobs` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], jobs: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results;
}
