/**
 * pytest node ids from JUnit `classname`/`name`: `tests.test_sum.TestX` + `test_add` becomes
 * `tests/test_sum.py::TestX::test_add`, by finding the longest dotted prefix that is a file.
 * @module
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { plainId, type IdResolver } from './junit.js';

/** A resolver that turns pytest JUnit test cases into node ids, looking files up under `root`. */
export function pytestIdResolver(root: string): IdResolver {
  const cache = new Map<string, boolean>();
  const isFile = (rel: string) => {
    let hit = cache.get(rel);
    if (hit === undefined) {
      hit = existsSync(path.join(root, rel));
      cache.set(rel, hit);
    }
    return hit;
  };
  return (tc) => {
    // A collection error is one test case for the module: no classname, the dotted module as name.
    if (tc.classname === '' && /^[\w.]+$/.test(tc.name)) {
      const file = `${tc.name.split('.').join('/')}.py`;
      if (isFile(file)) return file;
    }
    const parts = tc.classname.split('.').filter((p) => p !== '');
    for (let i = parts.length; i >= 1; i--) {
      const file = `${parts.slice(0, i).join('/')}.py`;
      if (isFile(file)) return [file, ...parts.slice(i), tc.name].join('::');
    }
    return plainId(tc);
  };
}
