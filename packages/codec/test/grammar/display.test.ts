import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeControls, hostPort, showText, unshowText } from '@gamequery/codec/internal';

// eslint-disable-next-line no-control-regex -- the controls are what the escapers remove
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('showText', () => {
  it('writes controls and backslashes as escapes, as a tree shows a value', () => {
    expect(showText('a\tb\nc\r\0')).toBe('a\\tb\\nc\\r\\0');
    expect(showText('\x1b[2J\x7f\x85')).toBe('\\x1b[2J\\x7f\\x85');
    expect(showText('C:\\maps')).toBe('C:\\\\maps');
  });

  it('leaves printable text, Cyrillic and accents included, as it is', () => {
    expect(showText('Сервер — Café')).toBe('Сервер — Café');
  });

  it('never lets a control through, and is the same on a second call (its regular expression keeps no state)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(showText(s)).not.toMatch(CONTROL);
        expect(showText(s)).toBe(showText(s));
      }),
    );
  });
});

describe('unshowText', () => {
  it('gives back the text showText was given', () => {
    expect(unshowText('rcon_password\\t= "********"  C:\\\\maps \\x1b')).toBe('rcon_password\t= "********"  C:\\maps \x1b');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(unshowText(showText(s))).toBe(s);
      }),
    );
  });
});

describe('escapeControls', () => {
  it('writes controls as showText writes them and leaves backslashes alone, so shown text is not escaped twice', () => {
    expect(escapeControls('\x1b]0;title\x07 C:\\maps\n')).toBe('\\x1b]0;title\\x07 C:\\maps\\n');
    expect(escapeControls(showText('a\\b\x1b'))).toBe(showText('a\\b\x1b'));
  });

  it('never lets a control through', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(escapeControls(s)).not.toMatch(CONTROL);
        expect(escapeControls(s).replace(/\\(x[0-9a-f]{2}|[nrt0])/g, '')).toBe(s.replace(new RegExp(CONTROL.source, 'g'), ''));
      }),
    );
  });
});

describe('hostPort', () => {
  it('writes an IPv6 address in brackets, anything else as it is', () => {
    expect(hostPort('127.0.0.1', 7777)).toBe('127.0.0.1:7777');
    expect(hostPort('::1', 8192)).toBe('[::1]:8192');
    expect(hostPort('::ffff:192.0.2.1', 25565)).toBe('[::ffff:192.0.2.1]:25565');
    expect(hostPort('play.example.com', 25565)).toBe('play.example.com:25565');
  });
});
