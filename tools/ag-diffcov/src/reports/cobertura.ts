/**
 * Cobertura XML reader, streamed through saxes. A byte-level pre-filter cuts out the
 * `<class>` elements of files the diff does not touch before they reach the XML parser,
 * so a 100 MB report costs little more than reading it; every kept element is parsed and
 * checked by saxes. `<line number hits>` of a class's own `<lines>` gives line coverage
 * (covered means hits > 0); the `<line>` of a `<method>` is not a line, as diff-cover reads
 * `class/lines/line` only: istanbul's reporter (jest, vitest, nyc, c8) writes each function's
 * first line there, which its lcov does not count as a line (FN, not DA). What they say only
 * takes coverage away, as lcov's branch and function records do (`lcov-record.ts`): a class
 * line with hits > 0 and `branch="true"` whose `condition-coverage` is 0% (or unreadable),
 * or that is the line of a `<method hits="0">`, ran only in part.
 * @module
 */
import path from 'node:path';
import { normaliseReportPath, type ReportPath } from '../paths/normalise.js';
import { ClassSkipper } from './class-skipper.js';
import { addHits, mergeRun, ReportCollector, type LineHits, type ReportData, type WantsPath } from './types.js';
import { lineAttrs, XmlFeed, type SaxesTagPlain } from './xml-feed.js';

/** Resolve a class `filename` against the report's `<source>` list. */
export function coberturaPath(filename: string, sources: readonly string[]): ReportPath {
  const p = normaliseReportPath(filename);
  if (p.absolute || sources.length !== 1) return p;
  const src = normaliseReportPath(sources[0]!);
  if (!src.absolute) return p;
  return normaliseReportPath(path.posix.join(src.key, p.key));
}

/** Incremental Cobertura parser: feed chunks, then `end()`. */
export class CoberturaParser {
  private readonly xml: XmlFeed;
  private readonly out: ReportCollector;
  private readonly skipper: ClassSkipper;
  private readonly sources: string[] = [];
  private sourceText: string | null = null;
  /** The open class's own line hits, and the lines it says ran only in part (merged into the file at `</class>`). */
  private current: LineHits | null = null;
  private currentPartial = new Set<number>();
  private entry: { readonly lines: LineHits; readonly partial: Set<number> } | null = null;
  /** The open `<method>`'s hits (0: never called), or null outside one. */
  private methodHits: number | null = null;
  /** The elements open inside the current `<class>` (empty outside one). */
  private readonly inClass: string[] = [];
  private classOpen = false;
  private sawRoot = false;

  constructor(file: string, wants: WantsPath) {
    this.xml = new XmlFeed(file);
    this.out = new ReportCollector(wants);
    this.skipper = new ClassSkipper(
      (bytes) => this.xml.write(bytes),
      (filename) => wants(coberturaPath(filename, this.sources)),
      () => this.out.fileCount++,
    );
    const p = this.xml.parser;
    p.on('opentag', (tag) => this.open(tag as SaxesTagPlain));
    p.on('closetag', (tag) => this.close(tag.name));
    p.on('text', (t) => {
      if (this.sourceText !== null) this.sourceText += t;
    });
  }

  private open(tag: SaxesTagPlain): void {
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (tag.name !== 'coverage') this.xml.fail(`root element is <${tag.name}>, not a Cobertura <coverage>`);
      return;
    }
    if (tag.name === 'class' && this.classOpen) return this.xml.fail('a <class> inside a <class>');
    if (tag.name === 'source') this.sourceText = '';
    else if (tag.name === 'class') {
      const filename = tag.attributes.filename;
      if (filename === undefined || filename === '') return this.xml.fail('<class> without a filename attribute');
      this.classOpen = true;
      this.entry = this.out.openEntry(coberturaPath(filename, this.sources));
      this.current = this.entry === null ? null : new Map();
      this.currentPartial = new Set();
    } else if (this.classOpen) {
      const parent = this.inClass[this.inClass.length - 1];
      const depth = this.inClass.push(tag.name);
      if (tag.name === 'method' && depth === 2) {
        const hits = Number(tag.attributes.hits ?? '');
        this.methodHits = Number.isSafeInteger(hits) && hits >= 0 ? hits : 0;
      }
      if (tag.name !== 'line') return;
      // class > lines > line is the class's; class > methods > method > lines > line, a method's
      // (not read, as diff-cover does not); a <line> anywhere else is not Cobertura.
      if (parent !== 'lines')
        return this.xml.fail(`a <line> inside <${parent ?? 'class'}>, not in the <lines> of its <class> or <method>`);
      if (depth === 2) this.line(tag);
      else if (depth === 4 && this.inClass[1] === 'method' && this.methodHits === 0) this.methodLine(tag);
    }
  }

  private line(tag: SaxesTagPlain): void {
    if (this.current === null) return;
    const read = lineAttrs(tag, 'number', 'hits');
    if (typeof read === 'string') return this.xml.fail(read);
    if (read[0] <= 0) return;
    addHits(this.current, read[0], read[1]);
    if (
      tag.attributes.branch === 'true' &&
      !/^\s*[0-9.]*[1-9][0-9.]*\s*%/.test(tag.attributes['condition-coverage'] ?? '')
    )
      this.currentPartial.add(read[0]);
  }

  /** A line of a method never called: the class's line there ran only in part. */
  private methodLine(tag: SaxesTagPlain): void {
    if (this.current === null) return;
    const read = lineAttrs(tag, 'number', 'hits');
    if (typeof read === 'string') return this.xml.fail(read);
    if (read[0] > 0) this.currentPartial.add(read[0]);
  }

  private close(name: string): void {
    if (name === 'source' && this.sourceText !== null) {
      const s = this.sourceText.trim();
      if (s !== '') this.sources.push(s);
      this.sourceText = null;
    } else if (name === 'class' && this.inClass.length === 0) {
      if (this.entry !== null && this.current !== null) {
        const lines = this.current;
        mergeRun(this.entry, lines, new Set([...this.currentPartial].filter((n) => (lines.get(n) ?? 0) > 0)));
      }
      this.classOpen = false;
      this.current = null;
      this.entry = null;
    } else if (this.classOpen) {
      if (this.inClass.pop() === 'method' && this.inClass.length === 1) this.methodHits = null;
    }
  }

  /** Parse the next chunk of bytes. */
  write(chunk: Buffer): void {
    this.skipper.write(chunk);
  }

  /** Finish the document. */
  end(): ReportData {
    this.skipper.end();
    this.xml.close();
    if (!this.sawRoot) this.xml.fail('has no root element');
    return this.out.done('cobertura');
  }
}
