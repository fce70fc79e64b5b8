#!/usr/bin/env node
// detect.mjs --tree DIR [--python PATH] [--allow-scripts] [--tools-dir DIR]
//
// Finds out what the checkout DIR is (ag-core's detectProject): its install command, its test
// runner, and the commands that run the tests with a per-test report and a coverage report.
// Prints shell assignments (AG_DETECTED_*) on stdout for a pipeline to eval, and one short
// block saying what was detected, and from which file, on stderr. With --tools-dir, a
// reporter or coverage tool the project lacks (jest-junit, c8, @vitest/coverage-v8) is wired
// from that folder: AG_DETECTED_TOOLS lists the packages to install there (install-tools.sh),
// AG_DETECTED_TOOL_LINKS those the coverage tree's node_modules must link to. node:test runs
// with this folder's node-test-junit.mjs, whose test cases carry their file.
// Exit: 0, or 3 on bad arguments.
import path from 'node:path';
import { detectProject, shQuote, wirePytest } from '@adversary-gate/core';
import { stageNodeReporter } from './node-reporter.mjs';

const args = process.argv.slice(2);
let tree = null;
let python = 'python3';
let allowScripts = false;
let toolsDir;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--tree' && i + 1 < args.length) tree = args[++i];
  else if (a === '--python' && i + 1 < args.length) python = args[++i];
  else if (a === '--allow-scripts') allowScripts = true;
  else if (a === '--tools-dir' && i + 1 < args.length) toolsDir = path.resolve(args[++i]);
  else {
    console.error(
      `detect.mjs: unexpected argument ${a} (usage: detect.mjs --tree DIR [--python PATH] [--allow-scripts] [--tools-dir DIR])`,
    );
    process.exit(3);
  }
}
if (tree === null) {
  console.error('detect.mjs: --tree DIR is required');
  process.exit(3);
}

const toolbox = {
  nodeReporter: stageNodeReporter(toolsDir),
  ...(toolsDir === undefined ? {} : { dir: toolsDir }),
};
const plan = detectProject(tree, { allowScripts, toolbox });
const wiring = plan.runner === 'pytest' ? wirePytest(python) : plan.wiring;
const out = {
  AG_DETECTED_RUNNER: plan.runner ?? '',
  AG_DETECTED_INSTALL_COMMAND: plan.install_command ?? '',
  AG_DETECTED_TEST_COMMAND: wiring?.test_command ?? '',
  AG_DETECTED_JUNIT: wiring?.report.kind === 'junit' ? wiring.report.path : '',
  AG_DETECTED_COVERAGE_COMMAND: wiring?.coverage_command ?? '',
  AG_DETECTED_COVERAGE_REPORT: wiring?.coverage_report ?? '',
  AG_DETECTED_TOOLS: (wiring?.tools ?? []).map((t) => `${t.name}@${t.version}`).join(' '),
  AG_DETECTED_TOOL_LINKS: (wiring?.tools ?? [])
    .filter((t) => t.link)
    .map((t) => t.name)
    .join(' '),
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
