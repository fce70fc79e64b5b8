import test from 'ava';
import { InputError } from '@adversary-gate/core';
import { JacocoParser } from '../src/reports/jacoco.js';
import { all, feed, table } from './helpers/feed.js';

const XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd">
<report name="demo">
  <sessioninfo id="x" start="1" dump="2"/>
  <package name="com/acme">
    <class name="com/acme/Calc" sourcefilename="Calc.java">
      <method name="add" desc="(II)I" line="3"><counter type="LINE" missed="0" covered="1"/></method>
    </class>
    <sourcefile name="Calc.java">
      <line nr="3" mi="0" ci="4" mb="0" cb="0"/>
      <line nr="5" mi="2" ci="0" mb="0" cb="0"/>
      <counter type="LINE" missed="1" covered="1"/>
    </sourcefile>
  </package>
</report>`;

test('sourcefile lines under their package path; covered means ci > 0', (t) => {
  const data = feed(new JacocoParser('j.xml', all), XML);
  t.deepEqual(table(data), {
    'com/acme/Calc.java': [
      [3, 4],
      [5, 0],
    ],
  });
  t.is(data.format, 'jacoco');
});

test('method line attributes are not read as lines', (t) => {
  const data = feed(new JacocoParser('j.xml', all), XML);
  t.is(data.files.get('com/acme/Calc.java')?.lines.size, 2);
});

test('refuses a line without nr and another root element', (t) => {
  t.throws(
    () =>
      feed(
        new JacocoParser('j.xml', all),
        '<report><package name="p"><sourcefile name="A.java"><line ci="1"/></sourcefile></package></report>',
      ),
    {
      instanceOf: InputError,
      message: /without a nr attribute/,
    },
  );
  t.throws(() => feed(new JacocoParser('j.xml', all), '<coverage/>'), { message: /not a JaCoCo/ });
});
