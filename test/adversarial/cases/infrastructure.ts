// Catalogue section G: faults of the gate's own infrastructure, injected between real
// binaries (fake tool wrappers in AG_BIN_DIR, a fake bwrap first on PATH).
import path from 'node:path';
import type { AdversarialCase } from '../case.js';
import { fakeBinDir, fakeCommand } from '../tamper.js';
import { DOUBLE_TEST, WITH_DOUBLE } from './snippets.js';

const CLEAN = { 'src/cart.js': WITH_DOUBLE, 'test/double.test.js': DOUBLE_TEST };
const NAMESPACE_ERROR =
  'echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2; exit 1';

export const INFRASTRUCTURE: readonly AdversarialCase[] = [
  {
    id: 'G65',
    what: 'ag-mutate crashes and exits 0 without writing its evidence',
    patch: CLEAN,
    env: (ctx) => ({
      AG_BIN_DIR: fakeBinDir(path.join(ctx.hostDir, 'bin'), {
        'ag-mutate': 'echo "ag-mutate: out of memory" >&2; exit 0',
      }),
    }),
    verdict: 'HOLD',
    code: 'EVIDENCE_MISSING',
  },
  {
    id: 'G66',
    what: 'the test runner is not installed',
    patch: CLEAN,
    env: { AG_TEST_COMMAND: 'vitest run', AG_COVERAGE_COMMAND: 'c8 vitest run' },
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  {
    id: 'G67',
    what: 'bwrap asked for but it cannot create namespaces',
    patch: CLEAN,
    env: (ctx) => ({
      AG_SANDBOX: 'bwrap',
      PATH: `${fakeCommand(path.join(ctx.hostDir, 'path'), 'bwrap', NAMESPACE_ERROR)}:${process.env.PATH ?? ''}`,
    }),
    verdict: 'HOLD',
    code: 'EVIDENCE_MISSING',
  },
  {
    id: 'G68',
    what: 'run.json cut in half (killed mid-write by a non-atomic writer)',
    patch: CLEAN,
    env: (ctx) => ({
      AG_BIN_DIR: fakeBinDir(path.join(ctx.hostDir, 'bin'), {
        'ag-run':
          '"$REAL" "$@"; for a; do out=$a; done; size=$(wc -c < "$out"); head -c $((size / 2)) "$out" > "$out.half" && mv "$out.half" "$out"',
      }),
    }),
    verdict: 'HOLD',
    code: 'EVIDENCE_INVALID',
  },
];
