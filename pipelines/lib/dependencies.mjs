// The install step of gate.mjs, as gate.sh does it: each side's dependencies once, in its own
// copy (install-deps.sh; a side whose package files equal the other's shares its install),
// then the gate's own tools a project lacks (install-tools.sh, same timeout, same failure),
// the coverage tree's folder of links (link-packages.sh), and a digest of everything installed
// (packages-digest.sh), taken again by `check` after the last run of the patch's code. What
// fails is kept in `faults` (lib/pipeline-faults.mjs).
import { $, fs, path } from 'zx';

const SIDE_FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  '.npmrc',
  '.yarnrc.yml',
];

/**
 * Install what the run needs. Returns whether everything installed, and `check()`, which
 * writes packages-installed.sha256 and packages-after.sha256 into `out` and, when a run wrote
 * into the installed packages, moves run.json and mutation.json aside (ag-decide then holds).
 */
export async function prepareDependencies({
  here,
  out,
  work,
  coverageTree,
  installCommand,
  tools,
  toolsDir,
  timeout,
  faults,
}) {
  const lib = (name) => path.join(here, 'lib', name);
  const loud = $({ nothrow: true, quiet: false });
  let installed = true;
  if (installCommand !== '') {
    const read = (side, f) => {
      const file = path.join(out, side, f);
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    };
    const same = SIDE_FILES.every((f) => read('baseline', f) === read('patch', f));
    const install = async (side) => {
      const deps = path.join(work, `deps-${side}`);
      const r = await loud`sh ${lib('install-deps.sh')} ${path.join(out, side)} ${deps} ${timeout} ${installCommand}`;
      if (r.exitCode === 0) return true;
      await faults.add(
        `the install of the ${side} (${installCommand}) exited ${r.exitCode}, so no test ran`,
        `${deps}.log`,
      );
      return false;
    };
    installed = await install('baseline');
    if (installed && same)
      await fs.symlink(path.join(work, 'deps-baseline', 'node_modules'), path.join(out, 'patch', 'node_modules'));
    else if (installed) installed = await install('patch');
  }
  if (installed && tools.length > 0) {
    const specs = tools.map((t) => `${t.name}@${t.version}`);
    const r =
      await loud`sh ${lib('install-tools.sh')} ${path.join(out, 'baseline')} ${path.join(out, 'patch', 'node_modules')} ${toolsDir} ${timeout} ${specs}`;
    installed = r.exitCode === 0;
    if (!installed)
      await faults.add(
        `the gate's tool install (${specs.join(' ')}) exited ${r.exitCode}, so no test ran`,
        `${toolsDir}.log`,
      );
  }
  const digested = installed && installCommand !== '';
  if (digested) {
    // The coverage tree is run in place: its own folder of links, which its uid may write beside.
    const links = tools.filter((t) => t.link).map((t) => t.name);
    await $`sh ${lib('link-packages.sh')} ${path.join(out, 'patch', 'node_modules')} ${coverageTree} ${links.length > 0 ? [toolsDir, ...links] : []}`;
  }
  const dirs = [
    path.join(work, 'deps-baseline', 'node_modules'),
    path.join(work, 'deps-patch', 'node_modules'),
    path.join(toolsDir, 'node_modules'),
  ];
  const digest = async () => (await $`sh ${lib('packages-digest.sh')} ${dirs}`).stdout;
  const before = digested ? await digest() : null;
  const check = async () => {
    if (before === null) return;
    const after = await digest();
    await fs.writeFile(path.join(out, 'packages-installed.sha256'), before);
    await fs.writeFile(path.join(out, 'packages-after.sha256'), after);
    if (after === before) return;
    await faults.add(
      'a run wrote into the installed packages (packages-after.sha256 differs from packages-installed.sha256): run.json and mutation.json set aside',
    );
    for (const kind of ['run', 'mutation']) {
      const file = path.join(out, `${kind}.json`);
      if (await fs.pathExists(file)) await fs.move(file, `${file}.changed`, { overwrite: true });
    }
  };
  return { installed, check };
}
