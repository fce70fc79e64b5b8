#!/usr/bin/env node
// detect.mjs --tree DIR [--python PATH] [--allow-scripts]
//
// Finds out what the checkout DIR is (ag-core's detectProject): its install command, its test
// runner, and the commands that run the tests with a per-test report and a coverage report.
// Prints shell assignments (AG_DETECTED_*) on stdout for a pipeline to eval, and one short
// block saying what was detected, and from which file, on stderr.
// Exit: 0, or 3 on bad arguments.
import { detectProject, shQuote, wirePytest } from '@adversary-gate/core';

const args = process.argv.slice(2);
let tree = null;
let python = 'python3';
let allowScripts = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--tree' && i + 1 < args.length) tree = args[++i];
  else if (a === '--python' && i + 1 < args.length) python = args[++i];
  else if (a === '--allow-scripts') allowScripts = true;
  else {
    console.error(
      `detect.mjs: unexpected argument ${a} (usage: detect.mjs --tree DIR [--python PATH] [--allow-scripts])`,
    );
    process.exit(3);
  }
}
if (tree === null) {
  console.error('detect.mjs: --tree DIR is required');
  process.exit(3);
}

const plan = detectProject(tree, { allowScripts });
const wiring = plan.runner === 'pytest' ? wirePytest(python) : plan.wiring;
const out = {
  AG_DETECTED_RUNNER: plan.runner ?? '',
  AG_DETECTED_INSTALL_COMMAND: plan.install_command ?? '',
  AG_DETECTED_TEST_COMMAND: wiring?.test_command ?? '',
  AG_DETECTED_JUNIT: wiring?.report.kind === 'junit' ? wiring.report.path : '',
  AG_DETECTED_COVERAGE_COMMAND: wiring?.coverage_command ?? '',
  AG_DETECTED_COVERAGE_REPORT: wiring?.coverage_report ?? '',
  AG_DETECTED_PROBLEMS: plan.problems.join('; '),
};
for (const [k, v] of Object.entries(out)) process.stdout.write(`${k}=${shQuote(v)}\n`);

const lines = [`adversary-gate detected in ${tree}:`];
for (const f of plan.found) lines.push(`  ${f}`);
if (plan.install_command !== null) lines.push(`  install: ${plan.install_command}`);
if (wiring) {
  lines.push(`  tests: ${wiring.test_command}`);
  lines.push(`  per-test report: ${wiring.report.kind === 'junit' ? `JUnit ${wiring.report.path}` : 'TAP on stdout'}`);
  lines.push(`  coverage: ${wiring.coverage_command ?? 'none'}`);
}
for (const p of plan.problems) lines.push(`  problem: ${p}`);
process.stderr.write(`${lines.join('\n')}\n`);
