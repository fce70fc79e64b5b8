// Each tool README's usage equals the tool's --help: under the heading `## Usage`, the fenced
// blocks whose info string is `text` are, in order, `<tool> --help` and then `<tool> <sub> --help`
// for each sub-command, byte for byte (the trailing newline aside). Runs the built bins.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';

/** Every tool and its sub-commands, in the order their help blocks appear. */
const TOOLS: Readonly<Record<string, readonly string[]>> = {
  'ag-run': [],
  'ag-diffcov': [],
  'ag-mutate': ['merge', 'import'],
  'ag-oracle': [],
  'ag-decide': ['check', 'stats'],
  'ag-gate': ['decide'],
};

const USAGE_HEADING = '## Usage';

/** The `text` blocks of the README's usage section (up to the next `## ` heading). */
function usageBlocks(markdown: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(USAGE_HEADING);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const blocks: string[] = [];
  for (let i = 0; i < section.length; i++) {
    const fence = /^(`{3,})(.*)$/.exec(section[i]!);
    if (fence === null) continue;
    const close = section.findIndex((l, j) => j > i && l === fence[1]);
    if (close < 0) break;
    if (fence[2]!.trim() === 'text') blocks.push(section.slice(i + 1, close).join('\n'));
    i = close;
  }
  return blocks;
}

function help(tool: string, sub: string | undefined): string {
  const argv = [path.join(ROOT, 'tools', tool, 'bin', `${tool}.js`), ...(sub === undefined ? [] : [sub]), '--help'];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`${tool} ${sub ?? ''} --help exited ${r.status}: ${r.stderr}`);
  return r.stdout.replace(/\n+$/, '');
}

test('usageBlocks reads only the text blocks of the usage section', (t) => {
  const md = [
    '# x',
    '## Usage',
    '',
    '```text',
    'A',
    '```',
    '',
    '```sh',
    'x --y',
    '```',
    '````text',
    'B',
    '```',
    '````',
    '## Other',
    '```text',
    'C',
    '```',
  ].join('\n');
  t.deepEqual(usageBlocks(md), ['A', 'B\n```']);
  t.deepEqual(usageBlocks('# no usage\n'), []);
});

for (const [tool, subs] of Object.entries(TOOLS)) {
  test(`${tool}'s README usage equals its --help`, (t) => {
    const readme = path.join(ROOT, 'tools', tool, 'README.md');
    const blocks = usageBlocks(readFileSync(readme, 'utf8'));
    const expected = [undefined, ...subs].map((sub) => help(tool, sub));
    t.is(
      blocks.length,
      expected.length,
      `${readme}: ${USAGE_HEADING} must hold ${expected.length} \`\`\`text block(s): ${[tool, ...subs.map((s) => `${tool} ${s}`)].map((c) => `${c} --help`).join(', ')}`,
    );
    expected.forEach((text, i) =>
      t.is(
        blocks[i],
        text,
        `${readme}: block ${i + 1} differs from \`${tool}${i === 0 ? '' : ` ${subs[i - 1]}`} --help\`; paste its output`,
      ),
    );
  });
}
