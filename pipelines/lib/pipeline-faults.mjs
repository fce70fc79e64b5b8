// The steps gate.mjs could not do (an install that failed, no runner found), kept as gate.sh
// keeps them: one line each in OUT/pipeline-faults.txt (lib/pipeline-fault.sh says each on
// stderr), and each passed to ag-decide as --pipeline-fault, so the verdict names it.
import { $, fs, path } from 'zx';

/** The faults of one run writing into `out`. */
export function pipelineFaults(here, out) {
  const file = path.join(out, 'pipeline-faults.txt');
  return {
    /** Keep one fault: `text`, followed by the last lines of `log` when given. */
    async add(text, log) {
      const r = await $({
        nothrow: true,
        quiet: false,
      })`sh ${path.join(here, 'lib', 'pipeline-fault.sh')} gate.mjs ${file} ${text} ${log === undefined ? [] : [log]}`;
      if (r.exitCode !== 0) throw new Error(`gate.mjs: cannot keep a pipeline fault in ${file}`);
    },
    /** ag-decide's arguments for every fault kept. */
    async args() {
      if (!(await fs.pathExists(file))) return [];
      const lines = (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
      return lines.flatMap((l) => ['--pipeline-fault', l]);
    },
  };
}
