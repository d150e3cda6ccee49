import { describe, expect, it } from 'vitest';
import { decodeModelBytes } from '../../../core/model/text-encoding.js';

const declared = (encoding: string, body: string): string => `<?xml version="1.0" encoding="${encoding}"?><graphml>${body}</graphml>`;

describe('the text of a model file', () => {
  it('is UTF-8 unless the file says otherwise, with or without a byte-order mark', () => {
    expect(decodeModelBytes(Buffer.from('{"name":"Café"}'), 'm.json')).toBe('{"name":"Café"}');
    expect(decodeModelBytes(Buffer.from(declared('utf-8', 'é')), 'm.graphml')).toBe(declared('utf-8', 'é'));
    expect(decodeModelBytes(Buffer.from(`\ufeff${declared('UTF-8', 'é')}`), 'm.graphml')).toBe(`\ufeff${declared('UTF-8', 'é')}`);
  });

  it('is read in the encoding an XML declaration names: ISO-8859-1 byte for byte, others as Node.js decodes them', () => {
    // 0x80 is a C1 control in ISO-8859-1 (the euro sign in windows-1252, which WHATWG's decoder would give).
    expect(decodeModelBytes(Buffer.from(declared('ISO-8859-1', 'é\u0080'), 'latin1'), 'm.graphml')).toBe(declared('ISO-8859-1', 'é\u0080'));
    // 0xA4 is the euro sign in ISO-8859-15, 0xC1 a Cyrillic а in KOI8-R.
    expect(decodeModelBytes(Buffer.from([...Buffer.from(declared('ISO-8859-15', '')), 0xa4]), 'm.graphml')).toBe(`${declared('ISO-8859-15', '')}€`);
    expect(decodeModelBytes(Buffer.from([...Buffer.from(declared('koi8-r', '')), 0xc1]), 'm.graphml')).toBe(`${declared('koi8-r', '')}а`);
    const utf16 = Buffer.from(`\ufeff${declared('UTF-16', 'é')}`, 'utf16le');
    expect(decodeModelBytes(utf16, 'm.graphml')).toBe(declared('UTF-16', 'é'));
  });

  it('refuses an encoding Node.js cannot decode, naming it and the file', () => {
    expect(() => decodeModelBytes(Buffer.from(declared('x-klingon', '')), 'm.graphml')).toThrow(
      "m.graphml: The file declares the encoding 'x-klingon', which Node.js cannot decode: save it as UTF-8",
    );
  });
});
