/**
 * A saxes parser fed with bytes: strict UTF-8 decoding, one error type naming the file.
 * @module
 */
import { InputError } from '@adversary-gate/core';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

export type { SaxesTagPlain };

/** A saxes parser over a byte stream; parse errors become `InputError(file, …)`. */
export class XmlFeed {
  readonly parser = new SaxesParser({ position: true });
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private failure: InputError | null = null;

  constructor(readonly file: string) {
    this.parser.on('error', (err) => {
      this.failure ??= new InputError(file, `not well-formed XML: ${err.message.split('\n')[0]}`);
    });
    this.parser.on('xmldecl', (decl) => {
      const enc = decl.encoding?.toLowerCase();
      if (enc !== undefined && enc !== 'utf-8' && enc !== 'utf8' && enc !== 'us-ascii') {
        this.fail(`declares encoding ${decl.encoding}; only UTF-8 is read`);
      }
    });
  }

  /** Stop with a problem found by a handler. */
  fail(problem: string): void {
    this.failure ??= new InputError(this.file, problem);
  }

  private check(): void {
    if (this.failure !== null) throw this.failure;
  }

  /** Feed bytes (any split, even inside a UTF-8 sequence). */
  write(bytes: Uint8Array): void {
    let text: string;
    try {
      text = this.decoder.decode(bytes, { stream: true });
    } catch {
      throw new InputError(this.file, 'not valid UTF-8');
    }
    if (text !== '') this.parser.write(text);
    this.check();
  }

  /** End of document. */
  close(): void {
    try {
      const rest = this.decoder.decode();
      if (rest !== '') this.parser.write(rest);
    } catch {
      throw new InputError(this.file, 'not valid UTF-8');
    }
    this.check();
    this.parser.close();
    this.check();
  }
}

/** An integer attribute, or a problem text. */
function intAttr(tag: SaxesTagPlain, name: string): number | string {
  const raw = tag.attributes[name];
  if (raw === undefined) return `<${tag.name}> without a ${name} attribute`;
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return `<${tag.name} ${name}="${raw}"> is not a non-negative integer`;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) return `<${tag.name} ${name}="${raw}"> is out of range`;
  return n;
}

/** A `<line>` element's number and count (Cobertura `number`/`hits`, JaCoCo `nr`/`ci`), or a problem text. */
export function lineAttrs(
  tag: SaxesTagPlain,
  numberName: string,
  countName: string,
): readonly [number, number] | string {
  const line = intAttr(tag, numberName);
  if (typeof line === 'string') return line;
  const count = intAttr(tag, countName);
  if (typeof count === 'string') return count;
  return [line, count];
}
