import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '@adversary-gate/schemas';
import { readReport } from '../src/reports/read.js';
import { tempDir } from './helpers/repo.js';

const samples: Record<string, string> = {
  lcov: 'TN:\nSF:src/a.c\nDA:2,1\nend_of_record\n',
  cobertura:
    '<?xml version="1.0"?><coverage><packages><package><classes><class filename="src/a.c"><lines><line number="2" hits="1"/></lines></class></classes></package></packages></coverage>',
  jacoco:
    '<?xml version="1.0"?><report name="r"><package name="src"><sourcefile name="a.c"><line nr="2" mi="0" ci="1"/></sourcefile></package></report>',
  go: 'mode: set\nsrc/a.c:2.1,2.9 1 1\n',
  istanbul: JSON.stringify({
    'src/a.c': {
      path: 'src/a.c',
      statementMap: { '0': { start: { line: 2, column: 0 }, end: { line: 2, column: 1 } } },
      s: { '0': 1 },
    },
  }),
  coveragepy: JSON.stringify({
    meta: { version: '7' },
    files: { 'src/a.c': { executed_lines: [2], missing_lines: [] } },
  }),
  llvm: JSON.stringify({
    type: 'llvm.coverage.json.export',
    version: '2',
    data: [
      {
        files: [
          {
            filename: 'src/a.c',
            segments: [
              [2, 1, 1, true, true, false],
              [2, 9, 0, false, false, false],
            ],
          },
        ],
      },
    ],
  }),
};

for (const [format, text] of Object.entries(samples)) {
  test(`a ${format} report is recognised by content, read, and digested byte for byte`, async (t) => {
    const file = path.join(tempDir(), 'report.any');
    writeFileSync(file, text);
    const r = await readReport(file, 'auto', () => true);
    t.is(r.data.format as string, format);
    t.is(r.data.files.get('src/a.c')?.lines.get(2), 1);
    t.is(r.sha256, sha256(readFileSync(file)));
  });
}

test('--format forces the reader: a mismatching report is refused', async (t) => {
  const file = path.join(tempDir(), 'r.info');
  writeFileSync(file, samples.lcov!);
  await t.throwsAsync(
    readReport(file, 'cobertura', () => true),
    { message: /not well-formed XML|root element/ },
  );
});

test('JSON that is no coverage format is refused', async (t) => {
  const file = path.join(tempDir(), 'r.json');
  writeFileSync(file, '{"a": 1}');
  await t.throwsAsync(
    readReport(file, 'auto', () => true),
    { message: /r\.json: is JSON but not/ },
  );
});
