/**
 * Cobertura XML reader, streamed through saxes. A byte-level pre-filter cuts out the
 * `<class>` elements of files the diff does not touch before they reach the XML parser,
 * so a 100 MB report costs little more than reading it; every kept element is parsed and
 * checked by saxes. `<line number hits>` gives line coverage; covered means hits > 0.
 * @module
 */
import path from 'node:path';
import { normaliseReportPath, type ReportPath } from '../paths/normalise.js';
import { ClassSkipper } from './class-skipper.js';
import { addHits, ReportCollector, type LineHits, type ReportData, type WantsPath } from './types.js';
import { intAttr, XmlFeed, type SaxesTagPlain } from './xml-feed.js';

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
  private current: LineHits | null = null;
  private inClass = false;
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
    if (tag.name === 'source') this.sourceText = '';
    else if (tag.name === 'class') {
      const filename = tag.attributes.filename;
      if (filename === undefined || filename === '') return this.xml.fail('<class> without a filename attribute');
      this.inClass = true;
      this.current = this.out.open(coberturaPath(filename, this.sources));
    } else if (tag.name === 'line' && this.inClass && this.current !== null) {
      const line = intAttr(tag, 'number');
      const hits = intAttr(tag, 'hits');
      if (typeof line === 'string') return this.xml.fail(line);
      if (typeof hits === 'string') return this.xml.fail(hits);
      if (line > 0) addHits(this.current, line, hits);
    }
  }

  private close(name: string): void {
    if (name === 'source' && this.sourceText !== null) {
      const s = this.sourceText.trim();
      if (s !== '') this.sources.push(s);
      this.sourceText = null;
    } else if (name === 'class') {
      this.inClass = false;
      this.current = null;
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
