/**
 * JaCoCo XML reader, streamed through saxes. Files are `<package name="com/x">` +
 * `<sourcefile name="Foo.java">`, so their paths are relative to a source root
 * (`src/main/java`); the path matcher places them by suffix. Every `<line nr>` listed is
 * executable; covered means covered instructions `ci` > 0.
 * @module
 */
import { normaliseReportPath } from '../paths/normalise.js';
import { addHits, ReportCollector, type LineHits, type ReportData, type WantsPath } from './types.js';
import { lineAttrs, XmlFeed, type SaxesTagPlain } from './xml-feed.js';

/** Incremental JaCoCo parser: feed chunks, then `end()`. */
export class JacocoParser {
  private readonly xml: XmlFeed;
  private readonly out: ReportCollector;
  private pkg: string | null = null;
  private current: LineHits | null = null;
  private inSource = false;
  private sawRoot = false;

  constructor(file: string, wants: WantsPath) {
    this.xml = new XmlFeed(file);
    this.out = new ReportCollector(wants);
    const p = this.xml.parser;
    p.on('opentag', (tag) => this.open(tag as SaxesTagPlain));
    p.on('closetag', (tag) => {
      if (tag.name === 'package') this.pkg = null;
      else if (tag.name === 'sourcefile') {
        this.inSource = false;
        this.current = null;
      }
    });
  }

  private open(tag: SaxesTagPlain): void {
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (tag.name !== 'report') this.xml.fail(`root element is <${tag.name}>, not a JaCoCo <report>`);
      return;
    }
    if (tag.name === 'package') this.pkg = tag.attributes.name ?? '';
    else if (tag.name === 'sourcefile') {
      const name = tag.attributes.name;
      if (name === undefined || name === '' || this.pkg === null)
        return this.xml.fail('<sourcefile> without a name or outside a <package>');
      this.inSource = true;
      this.current = this.out.open(normaliseReportPath(this.pkg === '' ? name : `${this.pkg}/${name}`));
    } else if (tag.name === 'line' && this.inSource && this.current !== null) {
      const read = lineAttrs(tag, 'nr', 'ci');
      if (typeof read === 'string') return this.xml.fail(read);
      if (read[0] > 0) addHits(this.current, read[0], read[1]);
    }
  }

  /** Parse the next chunk of bytes. */
  write(chunk: Buffer): void {
    this.xml.write(chunk);
  }

  /** Finish the document. */
  end(): ReportData {
    this.xml.close();
    if (!this.sawRoot) this.xml.fail('has no root element');
    return this.out.done('jacoco');
  }
}
