import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { golden } from './helpers/golden.js';
import { agDecide, workdir } from './helpers/spawn.js';

const INSTALL =
  'the install (npm ci) of the patch exited 1: npm ERR! 404 Not Found - GET https://registry.example/left-pad';

function decideWith(extra: string[]) {
  const { dir, evidence } = workdir(golden());
  const r = agDecide(
    ['--diff', 'changes.diff', ...evidence, ...extra, '--out', 'verdict.json', '--markdown', 'verdict.md'],
    dir,
  );
  const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
  return { ...r, dir, read };
}

test('control: the same evidence with no pipeline fault is ACCEPTed', (t) => {
  const r = decideWith([]);
  t.is(r.code, 0, r.stderr);
  t.is((JSON.parse(r.read('verdict.json')) as { verdict: string }).verdict, 'ACCEPT');
});

test('a step the pipeline names as failed holds the verdict as PIPELINE_FAULT, with its words, even on ACCEPTing evidence', (t) => {
  const r = decideWith([
    '--pipeline-fault',
    INSTALL,
    '--pipeline-fault=no test command:\n  no runner found\tin package.json',
  ]);
  t.is(r.code, 2, r.stderr);
  const verdict = JSON.parse(r.read('verdict.json')) as {
    verdict: string;
    reasons: { code: string; evidence: string; message: string }[];
  };
  t.is(verdict.verdict, 'HOLD');
  t.deepEqual(
    verdict.reasons.map((x) => [x.code, x.evidence, x.message]),
    [
      ['PIPELINE_FAULT', 'input', 'the pipeline: no test command: no runner found in package.json'],
      ['PIPELINE_FAULT', 'input', `the pipeline: ${INSTALL}`],
    ],
  );
  t.regex(r.read('verdict.md'), /npm ERR! 404 Not Found/);
  t.regex(r.stderr, /ag-decide: HOLD \(PIPELINE_FAULT\)/);
});

test('a pipeline fault is one line of at most 500 characters; an empty one is a usage error (exit 3, no verdict)', (t) => {
  const long = decideWith(['--pipeline-fault', `x${'y'.repeat(900)}`]);
  t.is(long.code, 2);
  const message = (JSON.parse(long.read('verdict.json')) as { reasons: { message: string }[] }).reasons[0]!.message;
  t.is(message.length, 'the pipeline: '.length + 500);
  t.true(message.endsWith('…'));
  const empty = decideWith(['--pipeline-fault', '  \n ']);
  t.is(empty.code, 3);
  t.regex(
    empty.stderr,
    /^ag-decide: usage: --pipeline-fault needs a text that names the step that failed \(see `ag-decide --help`\)\n$/,
  );
  t.throws(() => empty.read('verdict.json'));
});
