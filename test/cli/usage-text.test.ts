import { describe, expect, it } from 'vitest';
import { describeOption, listed, lowerFirst, withPlaceholders } from '../../cli/usage-text.js';

const MODEL = { names: '-m,--model', placeholders: ['<file>', '<generator>'], required: true };
const TIMEOUT = { names: '--timeout', placeholders: ['<ms>'], required: false };
const REQUEST_TIMEOUT = { names: '--request-timeout', placeholders: ['<s>'], required: false };

describe('withPlaceholders', () => {
  it('names the values of an option and drops the brackets of a required one', () => {
    expect(withPlaceholders('walker offline [-m,--model #0 #1] [--timeout #0]', [MODEL, TIMEOUT])).toBe(
      'walker offline -m,--model <file> <generator> [--timeout <ms>]',
    );
  });

  it('rewrites an option list entry', () => {
    expect(withPlaceholders('-m,--model #0 #1', [MODEL])).toBe('-m,--model <file> <generator>');
  });

  it('never rewrites the tail of a longer option name', () => {
    const text = 'walker online [--request-timeout #0] [--timeout #0]';
    expect(withPlaceholders(text, [TIMEOUT, REQUEST_TIMEOUT])).toBe('walker online [--request-timeout <s>] [--timeout <ms>]');
  });
});

describe('message helpers', () => {
  it('describes an option with its values', () => {
    expect(describeOption(MODEL)).toBe('-m,--model <file> <generator>');
  });

  it('lists one, two or three items', () => {
    expect([listed(['a']), listed(['a', 'b']), listed(['a', 'b', 'c'])]).toEqual(['a', 'a and b', 'a, b and c']);
  });

  it('lowers the first letter of a sentence but not of an acronym', () => {
    expect([lowerFirst('Invalid value'), lowerFirst('URL missing'), lowerFirst('-p needs')]).toEqual([
      'invalid value',
      'URL missing',
      '-p needs',
    ]);
  });
});
