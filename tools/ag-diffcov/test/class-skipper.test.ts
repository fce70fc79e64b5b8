import test from 'ava';
import fc from 'fast-check';
import { ClassSkipper, decodeXmlAttr } from '../src/reports/class-skipper.js';

function run(xml: string, keep: (f: string) => boolean, cuts: number[] = []): { out: string; skipped: number } {
  const parts: Buffer[] = [];
  let skipped = 0;
  const s = new ClassSkipper(
    (b) => parts.push(Buffer.from(b)),
    keep,
    () => skipped++,
  );
  const bytes = Buffer.from(xml);
  const points = [...new Set([0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length])].sort(
    (a, b) => a - b,
  );
  for (let i = 0; i + 1 < points.length; i++) s.write(Buffer.from(bytes.subarray(points[i], points[i + 1])));
  s.end();
  return { out: Buffer.concat(parts).toString(), skipped };
}

const XML = `<?xml version="1.0"?>
<!-- <class filename="in-comment.py"> -->
<coverage><sources><source>/w</source></sources><packages><package name="p"><classes>
<class name="a" filename="keep.py"><lines><line number="1" hits="1"/></lines></class>
<class name="b" filename='drop.py' line-rate="1>0"><lines><line number="2" hits="0"/><!-- </class> --></lines></class>
<class name="c" filename="drop2.py"/>
<class name="d" filename="a&amp;b.py"><lines/></class>
</classes></package></packages></coverage>`;

const keepNamed = (f: string) => f === 'keep.py' || f === 'a&b.py';

test('unwanted <class> elements are cut out whole, wanted ones pass', (t) => {
  const { out, skipped } = run(XML, keepNamed);
  t.true(out.includes('filename="keep.py"'));
  t.true(out.includes('filename="a&amp;b.py"'));
  t.false(out.includes("filename='drop.py'"));
  t.true(out.includes('filename="drop2.py"'), 'a self-closing class is passed (nothing to cut)');
  t.is(skipped, 1);
  t.true(out.includes('<classes>') && out.includes('</classes>'), '<classes> is not mistaken for <class>');
});

test('a <class inside a comment is not an element, and a </class> inside a skipped comment does not end the skip', (t) => {
  const { out } = run(XML, keepNamed);
  t.true(out.includes('<!-- <class filename="in-comment.py"> -->'));
  t.false(out.includes('<line number="2"'));
});

test('the output does not depend on where the stream is cut', (t) => {
  const expected = run(XML, keepNamed).out;
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: XML.length - 1 }), { maxLength: 10 }), (cuts) => {
      t.is(run(XML, keepNamed, cuts).out, expected);
    }),
    { numRuns: 300 },
  );
});

test('XML attribute references are decoded', (t) => {
  t.is(decodeXmlAttr('a&amp;b&#233;&#x41;&lt;&quot;'), 'a&béA<"');
});

test('every pair of cut points gives the same output (tiny chunks included)', (t) => {
  const expected = run(XML, keepNamed).out;
  let bad = '';
  for (let i = 1; i < XML.length && bad === ''; i += 2) {
    for (let j = i + 1; j < XML.length && bad === ''; j += 3)
      if (run(XML, keepNamed, [i, j]).out !== expected) bad = `${i},${j}`;
  }
  t.is(bad, '');
});
