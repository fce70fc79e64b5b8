/**
 * The byte-level first pass over an lcov tracefile: split it into its `SF:` records without
 * parsing them, and keep the bytes of only the records that may belong to a changed file. Everything kept is parsed and validated
 * afterwards by {@link LcovParser.fromScan}; records ruled out here are stepped over exactly
 * as the streaming parser steps over the records it does not want.
 *
 * The functions here are self-contained (no reference to anything outside their own body):
 * the scan runs in a worker thread built from their source text (see `lcov-prefetch.ts`).
 * @module
 */

/**
 * One `SF:` record: its path as written, and its bytes when kept. A run of consecutive
 * records ruled out is one entry (bytes null): the first one's path and how many there were.
 */
export interface LcovRecord {
  readonly name: string;
  readonly bytes: Buffer | null;
  /** How many records the entry stands for (1 for a kept record). */
  readonly count: number;
}

/** An lcov file split into records. */
export interface LcovScan {
  /** Bytes before the first `SF:` line (validated by the parser). */
  readonly head: Buffer;
  readonly records: readonly LcovRecord[];
  /** The file's last (up to) 64 bytes, to tell a finished file from a cut one. */
  readonly tail: Buffer;
}

/** A scanner fed with chunks; `overflow` turns true when the kept bytes pass the limit (then give up). */
export interface LcovScanner {
  write(chunk: Buffer): void;
  end(): LcovScan;
  readonly overflow: boolean;
}

/**
 * May a report path written as `name` belong to a file in `diffPaths`, by the path matcher's
 * rules (exact, report longer, report shorter; `root` the normalised `--root` or null)? For
 * a name that normalisation leaves as it is (apart from `\\`, a leading `./` or `../`, a
 * Windows drive), the answer is the matcher's; any other name (`file://`, `.` or `..` inside,
 * `//`, a trailing `/`) is a candidate whatever it says. So the test accepts every name the
 * matcher accepts, given every changed file is in `diffPaths`.
 */
export function lcovCandidate(diffPaths: readonly string[], root: string | null): (name: string) => boolean {
  const exact = new Set(diffPaths);
  const inner = new Set<string>(); // proper whole-segment suffixes of the diff paths
  for (const d of diffPaths) {
    for (let i = d.indexOf('/'); i !== -1; i = d.indexOf('/', i + 1)) if (i + 1 < d.length) inner.add(d.slice(i + 1));
  }
  // Every rule keeps a plain path's last segment: a name whose last segment no changed file
  // has is refused at once, unless it is of a form the full test below accepts whatever it says.
  const lastSegments = new Set<string>();
  for (const d of diffPaths) {
    lastSegments.add(d.slice(d.lastIndexOf('/') + 1));
    lastSegments.add(d.slice(Math.max(d.lastIndexOf('/'), d.lastIndexOf('\\')) + 1));
  }
  const special = /^$|^file:|[/\\]{2}|[/\\]$|(^|[/\\])\.\.?([/\\]|$)/;
  return (name) => {
    if (
      !lastSegments.has(name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)) &&
      !special.test(name)
    )
      return false;
    let p = name.includes('\\') ? name.replace(/\\/g, '/') : name;
    if (p.startsWith('file:')) return true;
    let drive = '';
    const m = /^\/?([A-Za-z]):\//.exec(p);
    if (m !== null) {
      drive = `${m[1]!.toUpperCase()}:`;
      p = p.slice(m[0].length - 1);
    }
    const absolute = p.startsWith('/');
    if (!absolute) while (p.startsWith('./') || p.startsWith('../')) p = p.slice(p.indexOf('/') + 1);
    const body = absolute ? p.slice(1) : p;
    if (
      body === '' ||
      body.startsWith('/') ||
      body.endsWith('/') ||
      body.includes('//') ||
      /(^|\/)\.\.?(\/|$)/.test(body)
    )
      return true;
    const key = drive + p;
    let rel = key;
    if (absolute && root !== null) {
      const windows = drive !== '';
      const k = windows ? key.toLowerCase() : key;
      const r = windows ? root.toLowerCase() : root;
      if (k.startsWith(`${r}/`)) rel = key.slice(root.length + 1);
    }
    if (exact.has(rel) || inner.has(rel)) return true;
    for (let i = rel.indexOf('/'); i !== -1; i = rel.indexOf('/', i + 1)) if (exact.has(rel.slice(i + 1))) return true;
    return false;
  };
}

/**
 * Split lcov bytes, fed in chunks of any size (a chunk may be reused by the caller), into
 * records; keep the bytes of candidate records and of the head, up to `keepLimit` bytes.
 * `SF:` records are found with a native search for `SF:` at a line start; no other line
 * is decoded.
 */
export function createLcovScanner(candidate: (name: string) => boolean, keepLimit: number): LcovScanner {
  const SF = Buffer.from('SF:');
  const records: { name: string; bytes: Buffer | null; count: number }[] = [];
  let parts: Buffer[] = [];
  let keeping = true; // the head is kept
  let currentName: string | null = null;
  let head: Buffer | null = null;
  let kept = 0;
  let overflow = false;
  let carry: Buffer | null = null;
  let tail = Buffer.alloc(0);

  const closeCurrent = (): void => {
    const bytes = keeping ? Buffer.concat(parts) : null;
    const last = records[records.length - 1];
    if (currentName === null) head = bytes ?? Buffer.alloc(0);
    else if (bytes === null && last !== undefined && last.bytes === null) last.count++;
    else records.push({ name: currentName, bytes, count: 1 });
    parts = [];
  };
  const keep = (w: Buffer, from: number, to: number): void => {
    if (!keeping || to <= from || overflow) return;
    kept += to - from;
    if (kept > keepLimit) overflow = true;
    else parts.push(Buffer.from(w.subarray(from, to)));
  };
  const findStart = (w: Buffer, from: number): number => {
    let at = w.indexOf(SF, from);
    while (at > 0 && w[at - 1] !== 10) at = w.indexOf(SF, at + 1);
    return at;
  };
  // A window starts at a line start and holds whole lines (the last may lack its newline at the end of input).
  const windowOf = (w: Buffer): void => {
    let pos = 0;
    let start = findStart(w, 0);
    while (start !== -1) {
      keep(w, pos, start);
      let lineEnd = w.indexOf(10, start);
      if (lineEnd === -1) lineEnd = w.length;
      const nameEnd = lineEnd > start + 3 && w[lineEnd - 1] === 13 ? lineEnd - 1 : lineEnd;
      closeCurrent();
      currentName = w.toString('utf8', start + 3, nameEnd);
      keeping = candidate(currentName);
      pos = start;
      start = findStart(w, lineEnd);
    }
    keep(w, pos, w.length);
  };

  return {
    get overflow() {
      return overflow;
    },
    write(chunk) {
      if (chunk.length === 0) return;
      tail = Buffer.from(chunk.length >= 64 ? chunk.subarray(-64) : Buffer.concat([tail, chunk]).subarray(-64));
      const lastNl = chunk.lastIndexOf(10);
      if (lastNl === -1) {
        carry = carry === null ? Buffer.from(chunk) : Buffer.concat([carry, chunk]);
        return;
      }
      let from = 0;
      if (carry !== null) {
        const firstNl = chunk.indexOf(10);
        windowOf(Buffer.concat([carry, chunk.subarray(0, firstNl + 1)]));
        from = firstNl + 1;
        carry = null;
      }
      if (lastNl + 1 > from) windowOf(chunk.subarray(from, lastNl + 1));
      if (lastNl + 1 < chunk.length) carry = Buffer.from(chunk.subarray(lastNl + 1));
    },
    end() {
      if (carry !== null) windowOf(carry);
      carry = null;
      closeCurrent();
      return { head: head ?? Buffer.alloc(0), records, tail };
    },
  };
}
