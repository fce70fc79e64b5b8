/**
 * Run independent tasks with at most `jobs` at a time, results in input order.
 * @module
 */

/** Map `items` through `fn` with at most `jobs` calls in flight; results keep the input order. */
export function mapLimit<T, R>(
  items: readonly T[],
  jobs: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  return Promise.all(startLimited(items, jobs, fn));
}

/**
 * Start `fn` on every item, at most `jobs` at a time in input order, and hand back each
 * item's promise at once (a consumer awaits only the one it needs). A rejection no one
 * awaited is not an unhandled one: whoever awaits that item still gets it.
 */
export function startLimited<T, R>(
  items: readonly T[],
  jobs: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R>[] {
  let running = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    running--;
    queue.shift()?.();
  };
  const promises = items.map(
    (item, i) =>
      new Promise<R>((resolve, reject) => {
        const start = () => {
          running++;
          fn(item, i).then(resolve, reject).finally(release);
        };
        if (running < Math.max(1, jobs)) start();
        else queue.push(start);
      }),
  );
  for (const p of promises) p.catch(() => {});
  return promises;
}
