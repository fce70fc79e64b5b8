/**
 * Processes that left the run's session and outlived its command: `setsid`, a double fork
 * into a session of its own, a daemon. Every one is killed (the sandbox's pid namespace dies
 * with the command; unsandboxed, the run's uid and token are swept); this module counts them
 * inside the sandbox, where they die before ag-run could see them, and names a patch
 * execution that left any as a fault. A suite that leaves a server running in its own
 * session is not counted: only a process that left it was made to outlive the run.
 * @module
 */
import { promises as fs } from 'node:fs';
import type { RunArtefact } from '@adversary-gate/schemas';

type Fault = RunArtefact['faults'][number];

/** The file, in the run directory, the sandboxed wrapper writes its count to. */
export const ESCAPE_COUNT_FILE = '.ag-run-escaped';

/**
 * Runs `$1` (the command) with /bin/sh, then, still inside the pid namespace and before it is
 * torn down, counts the processes (not zombies) in a session other than its own (bwrap's
 * `--new-session`) besides the namespace's init, and writes the count to `$2`. No fork after
 * the command: what it counts is what the command left. Exits with the command's status.
 */
const WRAPPER = [
  'out=$2',
  'read -r stat </proc/$$/stat',
  'set -- "$@" ${stat##*) }',
  'own=$6',
  'set -- "$1" "$2"',
  '/bin/sh -c "$1"',
  's=$?',
  'n=0',
  'for p in /proc/[0-9]*; do',
  '  case ${p#/proc/} in 1|$$) continue ;; esac',
  '  read -r stat <"$p/stat" 2>/dev/null || continue',
  '  set -- ${stat##*) }',
  '  [ "$1" != Z ] && [ "$4" != "$own" ] && n=$((n + 1))',
  'done',
  'printf "%s\\n" "$n" >|"$out" 2>/dev/null',
  'exit $s',
].join('\n');

/** The argv that runs `command` in the sandbox and counts what escaped it into `countFile`. */
export function countingCommand(command: string, countFile: string): string[] {
  return ['/bin/sh', '-c', WRAPPER, 'ag-run', command, countFile];
}

/**
 * The count the wrapper wrote, or 0 when it wrote none (the command was killed, the sandbox
 * did not start). The file is the run's uid's: only a number is read from it.
 */
export async function readEscapeCount(file: string): Promise<number> {
  let text: string;
  try {
    const fh = await fs.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      const buf = Buffer.alloc(32);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      text = buf.subarray(0, bytesRead).toString('latin1');
    } finally {
      await fh.close();
    }
  } catch {
    return 0;
  }
  const m = /^(\d{1,9})\n?$/.exec(text);
  return m === null ? 0 : Number(m[1]);
}

/** What one execution left, as the fault needs it. */
export interface EscapeSighting {
  readonly side: 'baseline' | 'patch';
  readonly round: number;
  readonly command: string;
  /** Processes that left the run's session (or group, unsandboxed) and outlived the command. */
  readonly escaped: number;
}

/**
 * One `PROCESSES_ESCAPED` fault per patch execution that left escaped processes, unless the
 * baseline's executions of the same command left some too (the suite's own habit, not the
 * patch's doing). Numbered as the executions are in `timing`.
 */
export function escapeFaults(sightings: readonly EscapeSighting[]): Fault[] {
  const baselineEscapes = new Set(
    sightings.filter((s) => s.side === 'baseline' && s.escaped > 0).map((s) => s.command),
  );
  const out: Fault[] = [];
  for (const [i, s] of sightings.entries()) {
    if (s.side !== 'patch' || s.escaped === 0 || baselineEscapes.has(s.command)) continue;
    out.push({
      code: 'PROCESSES_ESCAPED',
      message: `execution ${i + 1} (patch round ${s.round}, ${s.command}): ${s.escaped} process${s.escaped === 1 ? '' : 'es'} left the run's session and outlived the command (killed): the tests tried to keep code running after their run`,
    });
  }
  return out;
}
