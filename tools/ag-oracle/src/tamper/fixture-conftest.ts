/**
 * A new `conftest.py` that only shares fixtures with the tests: imports (of the source, the
 * runner, and test modules the patch leaves alone), constants, helper functions and fixtures that a test must ask for by name. Such a file steers nothing the
 * baseline's tests see (they never ask for its fixtures, and the baseline's tests run without
 * it in ag-run's trusted run), so it is test code, not runner configuration. Anything else at
 * the top level (a hook, `pytest_plugins`, an `autouse` fixture, a fixture named like one of
 * pytest's own, a class, a statement that runs code on import such as `shop.add = …`) keeps it
 * runner configuration.
 * @module
 */

/** pytest's own fixtures: one of these redefined changes every test that asks for it. */
const PYTEST_FIXTURES = new Set([
  'cache',
  'capfd',
  'capfdbinary',
  'caplog',
  'capsys',
  'capsysbinary',
  'capteesys',
  'config',
  'doctest_namespace',
  'monkeypatch',
  'pytestconfig',
  'record_property',
  'record_testsuite_property',
  'record_xml_attribute',
  'recwarn',
  'request',
  'testdir',
  'pytester',
  'tmp_path',
  'tmp_path_factory',
  'tmpdir',
  'tmpdir_factory',
]);

const IMPORT = /^import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)$/;
const FROM_IMPORT = /^from\s+([\w.]+)\s+import\s+\(?([\w\s,]+?)\)?$/;

/**
 * The modules an import statement runs (each package on the way: `a.b.c` runs `a`, `a.b`,
 * `a.b.c`; `from a import b` maybe the submodule `a.b`), or null when the line is no import.
 */
function importedModules(line: string): string[] | null {
  const prefixes = (name: string) => name.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'));
  const plain = IMPORT.exec(line);
  if (plain !== null) return plain[1]!.split(',').flatMap((part) => prefixes(part.trim().split(/\s+/)[0]!));
  const from = FROM_IMPORT.exec(line);
  if (from === null) return null;
  const names = from[2]!
    .split(',')
    .map((n) => n.trim().split(/\s+/)[0]!)
    .filter((n) => n !== '');
  return [...prefixes(from[1]!), ...names.map((n) => `${from[1]!}.${n}`)];
}

/**
 * The module names a changed Python file can be imported by: `tests/support/flip.py` is
 * `flip`, `support.flip` and `tests.support.flip`; a package's `__init__.py` names the package.
 */
export function moduleNamesOf(file: string): string[] {
  if (!/\.py$/.test(file)) return [];
  const parts = file.replace(/\.py$/, '').split('/');
  if (parts.at(-1) === '__init__') parts.pop();
  return parts.map((_, i) => parts.slice(i).join('.')).filter((n) => n !== '');
}
const FIXTURE = /^@pytest\.fixture\b/;
const DEF = /^(?:async\s+)?def\s+(\w+)\s*\(/;
/** `NAME = value` (or annotated): a name bound at the top level. */
const BINDING = /^[A-Za-z_]\w*\s*(?::\s*[\w[\], .]+)?=(?!=)\s*(.+)$/;
/** A call in code without its strings: a name, a subscript or a call followed by `(`. */
const CALL = /[\w\])]\s*\(/;

/** True when `line` binds a name to a value that calls nothing (a constant a fixture or test reads). */
function isConstantBinding(line: string): boolean {
  const value = BINDING.exec(line)?.[1];
  return value !== undefined && !CALL.test(value.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""'));
}
const DOCSTRING = /^(?:[rRbBuU]{0,2})(?:"""|'''|"|')/;

/** Python's bracket depth change over one line, strings and comments left out. */
function depthChange(line: string): number {
  const code = line.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '').replace(/#.*$/, '');
  let d = 0;
  for (const c of code) {
    if (c === '(' || c === '[' || c === '{') d++;
    else if (c === ')' || c === ']' || c === '}') d--;
  }
  return d;
}

/**
 * Why `text`, a new conftest.py, is more than shared fixtures, or null when it is only that.
 * Read line by line at the top level (statement starts outside brackets and docstrings).
 * `changedModules`: the module names of the test-side Python files the patch adds or changes;
 * importing one runs the patch's test code on import, so it counts as more.
 */
export function beyondFixtures(text: string, changedModules: ReadonlySet<string>): string | null {
  if (/\bautouse\s*=\s*True\b/.test(text)) return 'an autouse fixture applies to every test';
  if (/^\s*pytest_plugins\b/m.test(text)) return '`pytest_plugins` set';
  let depth = 0;
  let inDocstring: string | null = null;
  let fixtureNext = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (inDocstring !== null) {
      if (line.includes(inDocstring)) inDocstring = null;
      continue;
    }
    const atTop = depth === 0 && line !== '' && !/^\s/.test(line) && !line.startsWith('#');
    depth += depthChange(line);
    if (!atTop) continue;
    const doc = DOCSTRING.exec(line);
    if (doc !== null) {
      const quote = doc[0].replace(/^[rRbBuU]+/, '');
      if ((quote === '"""' || quote === "'''") && line.indexOf(quote, doc[0].length) < 0) inDocstring = quote;
      continue;
    }
    if (FIXTURE.test(line)) {
      const renamed = /\bname\s*=\s*["'](\w+)["']/.exec(line)?.[1];
      if (renamed !== undefined && PYTEST_FIXTURES.has(renamed)) return `fixture \`${renamed}\` replaces pytest's own`;
      fixtureNext = true;
      continue;
    }
    const def = DEF.exec(line);
    if (def !== null) {
      const name = def[1]!;
      if (name.startsWith('pytest_')) return `hook function \`${name}\``;
      if (fixtureNext && PYTEST_FIXTURES.has(name)) return `fixture \`${name}\` replaces pytest's own`;
      fixtureNext = false;
      continue;
    }
    if (fixtureNext) return `a decorated statement that is not a function: ${line.trim().slice(0, 80)}`;
    const imported = importedModules(line);
    if (imported !== null) {
      const changed = imported.find((m) => changedModules.has(m));
      if (changed !== undefined) return `imports \`${changed}\`, a test module the patch adds or changes`;
      continue;
    }
    if (isConstantBinding(line)) continue;
    return `code that runs on import: ${line.trim().slice(0, 80)}`;
  }
  return null;
}
