#!/usr/bin/env node
// The gate's node:test reporter (`node --test --test-reporter=THIS_FILE`): JUnit XML whose every
// test case carries its file (`file`, the absolute path node gives) and its full suite path
// (`name`: `suite > inner > title`), so equal titles in two files or two suites stay two tests.
// node's own junit reporter names no file. Works on every Node from 20 on.
//
// A suite is a test case only when it failed on its own (a hook or its body threw), not
// through its tests. A file that failed before reporting any test (node names that entry by
// the file's path) is a test case named by the path alone, with no `file`: a load failure.
// Counts are declared once, on <testsuites>. Executable only so that a sandbox binds its folder.

const esc = (text) =>
  String(text)
    // Characters XML 1.0 cannot hold at all, then the five it must escape.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** The first line of an error's message, for the failure element. */
function message(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : String(cause ?? 'failed');
  return text.split('\n')[0] ?? 'failed';
}

export default async function* junitWithFiles(source) {
  /** Each file's chain of open suites, by nesting level. */
  const open = new Map();
  const cases = [];
  for await (const event of source) {
    const data = event.data ?? {};
    const file = typeof data.file === 'string' ? data.file : '';
    if (event.type === 'test:start') {
      const chain = open.get(file) ?? [];
      chain.length = data.nesting;
      chain[data.nesting] = data.name;
      open.set(file, chain);
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const failed = event.type === 'test:fail';
    const details = data.details ?? {};
    if (details.type === 'suite' && (!failed || details.error?.failureType === 'subtestsFailed')) continue;
    const chain = (open.get(file) ?? []).slice(0, data.nesting);
    const loadFailure = data.nesting === 0 && (file === '' || data.name === file);
    const suite = chain.join(' > ');
    cases.push({
      name: loadFailure || suite === '' ? data.name : `${suite} > ${data.name}`,
      classname: loadFailure ? '' : suite,
      file: loadFailure ? '' : file,
      time: typeof details.duration_ms === 'number' ? details.duration_ms / 1000 : 0,
      outcome:
        data.todo !== undefined && data.todo !== false
          ? 'skipped'
          : data.skip !== undefined && data.skip !== false
            ? 'skipped'
            : failed
              ? 'failed'
              : 'passed',
      message: failed ? message(details.error) : '',
    });
  }
  const failures = cases.filter((c) => c.outcome === 'failed').length;
  const skipped = cases.filter((c) => c.outcome === 'skipped').length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  yield `<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="node:test" ${counts}>\n<testsuite name="node:test" ${counts}>\n`;
  for (const c of cases) {
    const attrs = `name="${esc(c.name)}" classname="${esc(c.classname)}"${c.file === '' ? '' : ` file="${esc(c.file)}"`} time="${c.time}"`;
    if (c.outcome === 'passed') yield `<testcase ${attrs}/>\n`;
    else if (c.outcome === 'skipped') yield `<testcase ${attrs}><skipped/></testcase>\n`;
    else yield `<testcase ${attrs}><failure message="${esc(c.message)}"/></testcase>\n`;
  }
  yield '</testsuite>\n</testsuites>\n';
}
