import test from 'ava';
import { InputError } from '@adversary-gate/core';
import { detectFormat, xmlRootName } from '../src/reports/detect.js';

const detect = (text: string) => detectFormat('r', Buffer.from(text));

test('formats are recognised by content', (t) => {
  t.is(detect('TN:\nSF:a.js\n'), 'lcov');
  t.is(detect('SF:a.js\nDA:1,1\n'), 'lcov');
  t.is(detect('mode: atomic\nm/a.go:1.1,2.2 1 1\n'), 'go');
  t.is(
    detect('<?xml version="1.0"?>\n<!-- x --><!DOCTYPE coverage SYSTEM "x.dtd">\n<coverage line-rate="1">'),
    'cobertura',
  );
  t.is(
    detect(
      '<?xml version="1.0"?><!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd"><report name="x">',
    ),
    'jacoco',
  );
  t.is(detect('  {"files": {}}'), 'json');
});

test('unrecognised content is refused, naming the file', (t) => {
  for (const text of [
    '',
    'hello world',
    '<html></html>',
    '<?xml version="1.0"?><coverage generated="1" clover="4.4">',
  ]) {
    const error = t.throws(() => detect(text), { instanceOf: InputError });
    t.is(error?.file, 'r');
  }
});

test('the XML root element is found past declarations, comments and doctypes', (t) => {
  t.is(xmlRootName('<?xml?><!-- <no> --><!DOCTYPE r [<!ENTITY e "x">]><root a="1">')?.name, 'root');
});
