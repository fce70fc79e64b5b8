/**
 * The runner is the baseline's: pytest plugins and hooks registered from test code (a
 * `pytest_plugins` list, a `pytest_*` hook function in a test module, a fixture or module
 * that registers a plugin through `config.pluginmanager`) are tamper signals like a changed
 * conftest. Read from added lines; comment lines never match.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import type { TamperFinding } from './finding.js';
import { isCommentLine } from './markers.js';

const PLUGINS = /^\s*pytest_plugins\s*(?::[^=]*)?[+]?=/;
const HOOK = /^\s*(?:async\s+)?def\s+(pytest_\w+)\s*\(/;
const REGISTER =
  /\bpluginmanager\s*\.\s*(register|import_plugin|consider_module|consider_preparse|set_blocked|unregister)\s*\(/;
const HOOKIMPL = /@\s*pytest\s*\.\s*hookimpl\b/;

/** What a line registers with the runner, or null. `inTest`: a test module, where hook functions count too. */
export function runnerHook(line: string, inTest: boolean): string | null {
  if (isCommentLine(line, 'py')) return null;
  if (PLUGINS.test(line)) return '`pytest_plugins` set: plugins loaded from test code';
  const register = REGISTER.exec(line);
  if (register !== null) return `\`pluginmanager.${register[1]}()\`: a plugin registered at run time`;
  if (!inTest) return null;
  if (HOOKIMPL.test(line)) return '`@pytest.hookimpl` in a test module';
  const hook = HOOK.exec(line);
  if (hook !== null && hook[1] !== 'pytest_generate_tests') return `hook function \`${hook[1]}\` in a test module`;
  return null;
}

/** Runner hooks on the added lines of one Python file (`inTest`: a test module or conftest). */
export function runnerHookFindings(file: ChangedFile, inTest: boolean): TamperFinding[] {
  if (file.status === 'deleted' || !/\.py$/i.test(file.path)) return [];
  const findings: TamperFinding[] = [];
  file.addedText.forEach((text, i) => {
    const what = runnerHook(text, inTest);
    if (what !== null)
      findings.push({ kind: 'runner_hook_added', path: file.path, line: file.addedLines[i] ?? null, detail: what });
  });
  return findings;
}
