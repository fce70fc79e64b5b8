/**
 * A byte-level pre-filter for Cobertura XML: passes the document through, except the
 * `<class …>…</class>` elements whose `filename` the caller does not want. Comments,
 * CDATA sections, processing instructions and doctypes are stepped over whole, so a
 * `<class` inside them is never mistaken for an element. What is cut is not parsed; what
 * is passed is parsed (and checked) by the XML parser downstream.
 * @module
 */

const CLASS_OPEN = Buffer.from('<class');
const CLASS_CLOSE = Buffer.from('</class');
const BANG = Buffer.from('<!');
const QUESTION = Buffer.from('<?');
/** Longest prefix that must be seen whole before deciding (`<![CDATA[`). */
const LOOKAHEAD = 9;

function isNameEnd(byte: number | undefined): boolean {
  return (
    byte === undefined ||
    byte === 0x20 ||
    byte === 0x09 ||
    byte === 0x0a ||
    byte === 0x0d ||
    byte === 0x3e ||
    byte === 0x2f
  );
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decode XML character and predefined entity references in an attribute value. */
export function decodeXmlAttr(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    return ENTITIES[ref]!;
  });
}

/** Cuts unwanted `<class>` elements out of a Cobertura byte stream. */
export class ClassSkipper {
  private carry: Buffer = Buffer.alloc(0);
  private skipping = false;
  private buf: Buffer = Buffer.alloc(0);
  private cache = new Map<Buffer, number>();

  /**
   * @param emit receives the bytes to parse, in order
   * @param keep decides from a class's `filename` whether its element is passed on
   * @param skipped called once per element cut out
   */
  constructor(
    private readonly emit: (bytes: Buffer) => void,
    private readonly keep: (filename: string) => boolean,
    private readonly skipped: () => void = () => {},
  ) {}

  /** Next index of `pattern` at or after `pos` in the current buffer (cached: rare patterns are scanned once per buffer). */
  private find(pattern: Buffer, pos: number): number {
    const cached = this.cache.get(pattern);
    if (cached !== undefined && (cached === -1 || cached >= pos)) return cached;
    const at = this.buf.indexOf(pattern, pos);
    this.cache.set(pattern, at);
    return at;
  }

  /** Index of the next `<class`/`</class` element name (not `<classes>`), or -1; it may end the buffer (then undecided). */
  private findTag(pattern: Buffer, pos: number): number {
    let at = this.buf.indexOf(pattern, pos);
    while (at !== -1 && at + pattern.length < this.buf.length && !isNameEnd(this.buf[at + pattern.length])) {
      at = this.buf.indexOf(pattern, at + 1);
    }
    return at;
  }

  /** End (exclusive) of a `<!…>` or `<?…?>` construct starting at `at`, -1 if not yet complete, -2 if too short to tell. */
  private specialEnd(at: number): number {
    const b = this.buf;
    if (at + LOOKAHEAD > b.length) return -2;
    const head = b.toString('latin1', at, at + LOOKAHEAD);
    const endOf = (term: string, from: number): number => {
      const i = b.indexOf(term, from, 'latin1');
      return i === -1 ? -1 : i + term.length;
    };
    if (head.startsWith('<?')) return endOf('?>', at + 2);
    if (head.startsWith('<!--')) return endOf('-->', at + 4);
    if (head.startsWith('<![CDATA[')) return endOf(']]>', at + 9);
    // <!DOCTYPE …> possibly with an internal subset […]
    const gt = b.indexOf(0x3e, at);
    const bracket = b.indexOf(0x5b, at);
    if (bracket !== -1 && (gt === -1 || bracket < gt)) {
      const close = b.indexOf(']', bracket, 'latin1');
      return close === -1 ? -1 : endOf('>', close);
    }
    return gt === -1 ? -1 : gt + 1;
  }

  /** End (exclusive) of the start tag beginning at `at` ('>' outside quotes), or -1. */
  private tagEnd(at: number): number {
    const b = this.buf;
    let quote = 0;
    for (let i = at + 1; i < b.length; i++) {
      const c = b[i]!;
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e) return i + 1;
    }
    return -1;
  }

  private nextSpecial(pos: number): number {
    const a = this.find(BANG, pos);
    const b = this.find(QUESTION, pos);
    if (a === -1) return b;
    if (b === -1) return a;
    return Math.min(a, b);
  }

  private work: Buffer = Buffer.alloc(0);

  /** The held-back bytes followed by `chunk`, in a reused buffer when they fit. */
  private join(chunk: Buffer): Buffer {
    if (this.carry.length === 0) return chunk;
    const size = this.carry.length + chunk.length;
    if (size > this.work.length) this.work = Buffer.allocUnsafe(Math.max(size, 2 * chunk.length));
    this.carry.copy(this.work, 0);
    chunk.copy(this.work, this.carry.length);
    return this.work.subarray(0, size);
  }

  /** Feed the next chunk (it may be reused by the caller afterwards). */
  write(chunk: Buffer): void {
    this.buf = this.join(chunk);
    this.cache = new Map();
    const b = this.buf;
    let pos = 0;
    let emitted = 0;
    const flush = (to: number): void => {
      if (to > emitted) this.emit(b.subarray(emitted, to));
      emitted = to;
    };
    const hold = (from: number): void => {
      if (!this.skipping) flush(from);
      this.carry = Buffer.from(b.subarray(from));
    };
    for (;;) {
      const special = this.nextSpecial(pos);
      const pattern = this.skipping ? CLASS_CLOSE : CLASS_OPEN;
      const tag = this.findTag(pattern, pos);
      if (special !== -1 && (tag === -1 || special < tag)) {
        const end = this.specialEnd(special);
        if (end < 0) return hold(special);
        pos = end;
        continue;
      }
      if (tag === -1) return hold(Math.max(pos, b.length - LOOKAHEAD));
      if (tag + pattern.length >= b.length) return hold(tag);
      const end = this.tagEnd(tag);
      if (end === -1) return hold(tag);
      if (this.skipping) {
        this.skipping = false;
        pos = end;
        emitted = end;
        continue;
      }
      // Everything before this class reaches the parser first (the caller's decision may need it: <source>).
      flush(tag);
      const text = b.toString('utf8', tag, end);
      const m = /\sfilename\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(text);
      const selfClosing = text.endsWith('/>');
      if (selfClosing || m === null || this.keep(decodeXmlAttr(m[1] ?? m[2] ?? ''))) {
        pos = end;
        continue;
      }
      flush(tag);
      this.skipped();
      this.skipping = true;
      pos = end;
      emitted = end;
    }
  }

  /** End of input: whatever is held back is passed on (the parser judges it). */
  end(): void {
    if (this.carry.length > 0 && !this.skipping) this.emit(this.carry);
    this.carry = Buffer.alloc(0);
  }
}
