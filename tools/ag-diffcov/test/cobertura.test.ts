import test from 'ava';
import { InputError } from '@adversary-gate/core';
import { CoberturaParser, coberturaPath } from '../src/reports/cobertura.js';
import { all, feed, table } from './helpers/feed.js';

const XML = `<?xml version="1.0" ?>
<coverage version="6.5.0">
  <sources><source>/workspace/repo</source></sources>
  <packages><package name="p"><classes>
    <class name="a.py" filename="src/a.py"><methods/><lines>
      <line number="1" hits="1"/><line number="2" hits="0" branch="true" condition-coverage="50% (1/2)"/>
    </lines></class>
    <class name="A$Inner" filename="src/a.py"><lines><line number="2" hits="4"/></lines></class>
    <class name="other.py" filename="elsewhere/other.py"><lines><line number="9" hits="0"/></lines></class>
  </classes></package></packages>
</coverage>`;

test('class lines give hits; a file split over several classes is merged (max)', (t) => {
  const data = feed(new CoberturaParser('c.xml', (p) => p.key.includes('/src/')), XML);
  t.deepEqual(table(data), {
    '/workspace/repo/src/a.py': [
      [1, 1],
      [2, 4],
    ],
  });
  t.is(data.fileCount, 3);
});

test('a relative filename is resolved against the single <source>', (t) => {
  t.is(coberturaPath('src/a.py', ['/w/repo']).key, '/w/repo/src/a.py');
  t.is(coberturaPath('src/a.py', ['/w/a', '/w/b']).key, 'src/a.py');
  t.is(coberturaPath('/abs/a.py', ['/w']).key, '/abs/a.py');
});

test('the answer does not depend on chunking', (t) => {
  const want = (p: { key: string }) => p.key.includes('/src/');
  const whole = table(feed(new CoberturaParser('c.xml', want), XML));
  for (let i = 1; i < XML.length; i += 7)
    t.deepEqual(table(feed(new CoberturaParser('c.xml', want), XML, [i, i + 3])), whole);
});

const refused: [string, string, RegExp][] = [
  ['malformed XML', '<coverage><packages></coverage>', /not well-formed XML/],
  [
    'a hits attribute that is not a count',
    '<coverage><class filename="a.py"><lines><line number="1" hits="x"/></lines></class></coverage>',
    /hits="x"/,
  ],
  [
    'a <line> straight in its <class>',
    '<coverage><class filename="a.py"><line number="1" hits="0"/></class></coverage>',
    /a <line> inside <class>, not in the <lines>/,
  ],
  [
    'a <line> straight in a <method>',
    '<coverage><class filename="a.py"><methods><method name="f"><line number="1" hits="0"/></method></methods><lines/></class></coverage>',
    /a <line> inside <method>/,
  ],
  [
    'a <class> inside a <class>',
    '<coverage><class filename="a.py"><class filename="b.py"></class></class></coverage>',
    /a <class> inside a <class>/,
  ],
  ['a class without filename', '<coverage><class name="a"></class></coverage>', /without a filename/],
  ['another root element', '<report></report>', /not a Cobertura/],
  ['a truncated document', '<coverage><packages><package>', /not well-formed XML/],
  ['a non-UTF-8 encoding', '<?xml version="1.0" encoding="ISO-8859-1"?><coverage/>', /only UTF-8/],
];
for (const [what, xml, message] of refused) {
  test(`refuses ${what}`, (t) => {
    const error = t.throws(() => feed(new CoberturaParser('c.xml', all), xml), { instanceOf: InputError });
    t.regex(error?.message ?? '', message);
    t.regex(error?.message ?? '', /^c\.xml: /);
  });
}

test('refuses bytes that are not UTF-8', (t) => {
  const bytes = Buffer.concat([
    Buffer.from('<coverage><class filename="'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('.py"/></coverage>'),
  ]);
  t.throws(() => feed(new CoberturaParser('c.xml', all), bytes), { message: /not valid UTF-8/ });
});

// istanbul's reporter (jest, vitest, nyc, c8) lists each function's first line in a <method>;
// diff-cover reads class/lines/line only, and so does lcov's DA.
const ISTANBUL = (methodHits: number, classLines: string) => `<?xml version="1.0" ?>
<coverage><sources><source>/w</source></sources><packages><package name="p"><classes>
  <class name="a.js" filename="a.js"><methods>
    <method name="f" hits="${methodHits}" signature="()V"><lines><line number="1" hits="${methodHits}"/></lines></method>
  </methods><lines>${classLines}</lines></class>
</classes></package></packages></coverage>`;

test("a <method>'s lines are not the class's: a function line only a method lists is not executable", (t) => {
  const data = feed(
    new CoberturaParser('c.xml', all),
    ISTANBUL(0, '<line number="2" hits="0"/><line number="3" hits="4"/>'),
  );
  t.deepEqual(table(data), {
    '/w/a.js': [
      [2, 0],
      [3, 4],
    ],
  });
});

test("a method that ran does not make the class's unrun line covered", (t) => {
  const data = feed(new CoberturaParser('c.xml', all), ISTANBUL(7, '<line number="1" hits="0"/>'));
  t.deepEqual(table(data), { '/w/a.js': [[1, 0]] });
});

test('honest control: class lines that repeat the method lines (Java Cobertura, c8) read the same', (t) => {
  const data = feed(
    new CoberturaParser('c.xml', all),
    ISTANBUL(3, '<line number="1" hits="3"/><line number="2" hits="0"/>'),
  );
  t.deepEqual(table(data), {
    '/w/a.js': [
      [1, 3],
      [2, 0],
    ],
  });
});
