/**
 * Strict JSON: parse text and refuse everything `JSON.parse` lets through silently
 * (duplicate keys, `__proto__`, non-finite or unsafe numbers, lone surrogates, deep nesting).
 * @module
 */
import { parse, type ValueNode } from '@humanwhocodes/momoa';
import { LoadError } from './errors.js';
import { oneLine } from './validate.js';

/** Nesting deeper than this is refused before parsing. */
export const MAX_DEPTH = 64;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Depth of bracket nesting outside strings, computed without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

function where(node: { loc: { start: { line: number; column: number } } }): string {
  return `line ${node.loc.start.line} column ${node.loc.start.column}`;
}

/** A control character (U+0000–U+001F) written raw, which JSON allows only escaped. */
const RAW_CONTROL = /[\u0000-\u001f]/;

function checkString(file: string, text: string, s: string, node: ValueNode | { loc: ValueNode['loc'] }): void {
  if (!s.isWellFormed()) throw new LoadError('E_ENCODING', file, `lone surrogate in a string at ${where(node)}`);
  // momoa accepts raw control characters inside strings; JSON (RFC 8259 §7) does not.
  if (RAW_CONTROL.test(text.slice(node.loc.start.offset, node.loc.end.offset))) {
    throw new LoadError('E_EVIDENCE_MALFORMED', file, `not valid JSON: unescaped control character in a string at ${where(node)}`);
  }
}

function toValue(file: string, text: string, node: ValueNode): unknown {
  switch (node.type) {
    case 'Object': {
      const out: Record<string, unknown> = Object.create(null);
      for (const member of node.members) {
        const key = member.name.type === 'String' ? member.name.value : member.name.name;
        checkString(file, text, key, member.name);
        if (FORBIDDEN_KEYS.has(key)) throw new LoadError('E_FORBIDDEN_KEY', file, `forbidden key ${JSON.stringify(key)} at ${where(member.name)}`);
        if (Object.hasOwn(out, key)) throw new LoadError('E_DUPLICATE_KEY', file, `duplicate key ${oneLine(JSON.stringify(key))} at ${where(member.name)}`);
        out[key] = toValue(file, text, member.value);
      }
      // Plain prototype again, so consumers see ordinary objects (keys were already vetted).
      return Object.assign({}, out);
    }
    case 'Array':
      return node.elements.map((e) => toValue(file, text, e.value));
    case 'String':
      checkString(file, text, node.value, node);
      return node.value;
    case 'Number': {
      const raw = text.slice(node.loc.start.offset, node.loc.end.offset);
      const value = node.value;
      if (!Number.isFinite(value)) throw new LoadError('E_NUMBER', file, `number ${raw} is not finite at ${where(node)}`);
      if (Object.is(value, -0)) throw new LoadError('E_NUMBER', file, `negative zero at ${where(node)}`);
      if (/^-?\d+$/.test(raw) && !Number.isSafeInteger(value)) {
        throw new LoadError('E_NUMBER', file, `integer ${raw} is beyond the safe range at ${where(node)}`);
      }
      return value;
    }
    case 'Boolean':
      return node.value;
    case 'Null':
      return null;
    default:
      throw new LoadError('E_EVIDENCE_MALFORMED', file, `unexpected ${node.type} at ${where(node)}`);
  }
}

/**
 * Parse `text` (already decoded) as strict JSON.
 * @param file the file name used in error messages
 * @throws LoadError
 */
export function parseStrictJson(file: string, text: string): unknown {
  if (text.trim() === '') throw new LoadError('E_EVIDENCE_MALFORMED', file, 'empty file, expected JSON');
  if (nestingDepth(text) > MAX_DEPTH) throw new LoadError('E_TOO_LARGE', file, `nesting deeper than ${MAX_DEPTH}`);
  let doc;
  try {
    doc = parse(text, { mode: 'json', ranges: false, tokens: false });
  } catch (error) {
    const msg = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw new LoadError('E_EVIDENCE_MALFORMED', file, `not valid JSON: ${oneLine(msg)}`);
  }
  return toValue(file, text, doc.body);
}

/**
 * Decode bytes as UTF-8, refusing a byte-order mark and invalid sequences.
 * @throws LoadError
 */
export function decodeUtf8Strict(file: string, bytes: Uint8Array): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new LoadError('E_ENCODING', file, 'starts with a UTF-8 byte-order mark');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new LoadError('E_ENCODING', file, 'not valid UTF-8');
  }
}
