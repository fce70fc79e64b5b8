/**
 * A test title the patch reworded with the test's body unchanged (ag-oracle finds them), and
 * the rule that ties one to a rename pair of test ids (ag-decide applies it).
 * @module
 */
import { fileOfId } from './flaky.js';

/** A reworded title in one test file. */
export interface RetitledTest {
  readonly path: string;
  readonly from: string;
  readonly to: string;
}

/**
 * True when the run's rename pair `from → to` (test ids) is one reworded title: `to` is `from`
 * with one occurrence of the old title replaced by the new one.
 */
export function isRetitle(
  ids: { readonly from: string; readonly to: string; readonly file?: string | null },
  t: RetitledTest,
): boolean {
  if (t.from === '') return false;
  const file = ids.file ?? fileOfId(ids.from);
  if (file !== null && file !== t.path) return false;
  for (let i = ids.from.indexOf(t.from); i >= 0; i = ids.from.indexOf(t.from, i + 1)) {
    if (ids.from.slice(0, i) + t.to + ids.from.slice(i + t.from.length) === ids.to) return true;
  }
  return false;
}
