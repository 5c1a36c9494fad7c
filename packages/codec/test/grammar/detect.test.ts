/**
 * `charset: 'auto'` (detect.ts): the corpus of server names, the ASCII fast path, short strings
 * leaning on their reply, and the tree, the compiled JSON emitter and the interpreter agreeing.
 */
import { describe, expect, it } from 'vitest';
import { nodeJson, samp, vcmp, fromHex, type QueryLayout } from '@gamequery/codec';
import { ByteSink, interpretedLayout, textCodec, internals } from '@gamequery/codec/internal';
import { accuracyByLength, corpus } from '../corpus/server-names.ts';
import { loadVectors } from '../helpers/vectors.ts';
import { detected } from '../../src/grammar/charset.ts';
import { detect } from '../../src/grammar/detect.ts';

const at = { serverIp: '127.0.0.1', serverPort: 7777 };
const enc = (charset: 'windows-1251' | 'windows-1252' | 'utf8', text: string): Uint8Array => textCodec(charset).encode(text)!;
/** A reply's strings written in one charset: the codec's encoder with that charset. */
const info = (charset: 'windows-1251' | 'windows-1252' | 'utf8', hostname: string, gamemode: string, language: string): Uint8Array =>
  samp.infoResponse.encode({ ...at, password: false, players: 1, maxPlayers: 10, hostname, gamemode, language }, { charset });
const clients = (charset: 'windows-1251' | 'windows-1252' | 'utf8', names: string[]): Uint8Array =>
  samp.clientsResponse.encode({ ...at, clients: names.map((name, i) => ({ name, score: i })) }, { charset });

const treeJson = (layout: QueryLayout, bytes: Uint8Array): string =>
  JSON.stringify(layout.annotate(bytes, { charset: 'auto' }).fields.map((n) => nodeJson(n, false)));

describe('charset auto-detection', () => {
  it('reads the corpus right: every string of 4+ bytes, and at least 99 % of 8+', () => {
    const byLength = accuracyByLength((b) => detect(b)?.charset);
    const [short, mid, eight, sixteen] = byLength;
    expect(corpus().length).toBeGreaterThan(500);
    expect(mid!.correct / mid!.samples).toBeGreaterThanOrEqual(0.99);
    expect((eight!.correct + sixteen!.correct) / (eight!.samples + sixteen!.samples)).toBeGreaterThanOrEqual(0.99);
    // 1–3 bytes (a lone letter like "у" or "à") is a guess without its reply; see the next test.
    expect(short!.correct / short!.samples).toBeGreaterThan(0.85);
  });

  it('reads a short string by its reply where alone it would read it wrong', () => {
    // c0 alone: "у" (windows-1251 f3) reads as windows-1252 "ó"; in a reply of Cyrillic names it is "у".
    expect(detect(enc('windows-1251', 'у'))?.charset).toBe('windows-1252');
    const reply = clients('windows-1251', ['у', 'Вася', 'Петров_Иван']);
    expect(samp.clientsResponse.decode(reply, { charset: 'auto' }).value.clients.map((c) => c.name)).toEqual(['у', 'Вася', 'Петров_Иван']);
    // The same byte among Latin names stays Latin.
    const latin = clients('windows-1252', ['ó', 'José', 'Müller']);
    expect(samp.clientsResponse.decode(latin, { charset: 'auto' }).value.clients.map((c) => c.name)).toEqual(['ó', 'José', 'Müller']);
    // A language after a Cyrillic hostname: "Я" (df) alone would be "ß".
    const i = info('windows-1251', 'Русский сервер', 'DM', 'Я');
    const nodes = samp.infoResponse.annotate(i, { charset: 'auto' }).fields;
    expect(nodes.find((n) => n.abbrev === 'samp.info.language')).toMatchObject({ value: 'Я', charset: 'windows-1251' });
  });

  it('decides each string of a reply on its own: a UTF-8 hostname beside a windows-1252 gamemode', () => {
    const bytes = samp.infoResponse.encode(
      { ...at, password: false, players: 0, maxPlayers: 0, hostname: 'Київ', gamemode: 'x', language: 'x' },
      { charset: 'utf8' },
    );
    // Splice a windows-1252 gamemode in by hand: "Café" = 43 61 66 e9.
    const head = bytes.subarray(0, bytes.length - 10);
    const mixed = Uint8Array.from([...head, 4, 0, 0, 0, 0x43, 0x61, 0x66, 0xe9, 1, 0, 0, 0, 0x78]);
    const nodes = samp.infoResponse.annotate(mixed, { charset: 'auto' }).fields;
    expect(nodes.filter((n) => n.charset).map((n) => [n.abbrev, n.value, n.charset])).toEqual([
      ['samp.info.hostname', 'Київ', 'utf8'],
      ['samp.info.gamemode', 'Café', 'windows-1252'],
    ]);
  });

  it('adds nothing to ASCII strings: the JSON is byte for byte that of a named charset', () => {
    let strings = 0;
    for (const v of loadVectors().filter((x) => x.value && !x.charset)) {
      const layout = [samp, vcmp].flatMap((ns) => Object.values(ns)).find((l) => l.id === v.layout);
      if (!layout) continue;
      const bytes = fromHex(v.hex);
      if (!bytes.every((b) => b < 0x80)) continue;
      strings++;
      expect(layout.annotateJson(bytes, { charset: 'auto', showSecrets: true })?.json).toBe(
        layout.annotateJson(bytes, { charset: 'windows-1252', showSecrets: true })?.json,
      );
      // The fast path: nothing was scored or recorded for the JSON writer to look up.
      expect(detected.bytes).toBeUndefined();
    }
    expect(strings).toBeGreaterThan(20);
    expect(detect(Uint8Array.of(0x41, 0x42))).toBeUndefined();
  });

  it('writes charset and confidence on non-ASCII nodes alike from the tree, the compiled emitter and the interpreter', () => {
    const sink = new ByteSink();
    const replies: [QueryLayout, Uint8Array][] = [
      [samp.infoResponse, info('windows-1251', 'Лучший сервер России', 'Ролевая игра', 'Я')],
      [samp.infoResponse, info('windows-1252', 'Straßenrennen Köln', 'Rennen', 'Ü')],
      [samp.infoResponse, info('utf8', 'Łódź i okolice', 'Gra', 'Polski')],
      [samp.clientsResponse, clients('windows-1251', ['Я', 'Вася', 'Sergey'])],
      [
        samp.rulesResponse,
        samp.rulesResponse.encode(
          {
            ...at,
            rules: [
              { name: 'mapname', value: 'Сан-Андреас' },
              { name: 'weburl', value: 'www.samp.ru' },
            ],
          },
          { charset: 'windows-1251' },
        ),
      ],
    ];
    for (const [layout, bytes] of replies) {
      const tree = treeJson(layout, bytes);
      expect(tree).toMatch(/"charset":"(utf8|windows-125[12])","confidence":(0\.\d+|1)/);
      expect(internals(layout).annotateJson(bytes, { charset: 'auto' })?.json).toBe(tree);
      sink.at = 0;
      expect(internals(layout).emitJsonWithWarnings(bytes, sink, { charset: 'auto' })).toBeDefined();
      expect(sink.text(0)).toBe(tree);
      expect(interpretedLayout(layout).annotateJson(bytes, { charset: 'auto' })?.json).toBe(tree);
      expect(layout.decode(bytes, { charset: 'auto' }).value).toEqual(interpretedLayout(layout).decode(bytes, { charset: 'auto' }).value);
    }
  });

  it('lets a named charset win: its text as it decodes, no charset on the tree', () => {
    const bytes = info('windows-1251', 'Русский сервер', 'DM', 'RU');
    const nodes = samp.infoResponse.annotate(bytes, { charset: 'windows-1252' }).fields;
    expect(nodes.find((n) => n.abbrev === 'samp.info.hostname')).toMatchObject({ value: 'Ðóññêèé ñåðâåð' });
    expect(nodes.some((n) => 'charset' in n)).toBe(false);
  });

  it('takes UTF-8 only when every sequence is valid, and encodes as windows-1252, else windows-1251, else UTF-8', () => {
    expect(detect(Uint8Array.of(0xc3, 0xa9))).toMatchObject({ charset: 'utf8' }); // é
    expect(detect(Uint8Array.of(0xc0, 0x80, 0x41))?.charset).not.toBe('utf8'); // overlong NUL
    expect(detect(Uint8Array.of(0xed, 0xa0, 0x80))?.charset).not.toBe('utf8'); // a surrogate
    expect(detect(Uint8Array.of(0xe2, 0x82))?.charset).not.toBe('utf8'); // cut short
    const auto = textCodec('auto');
    expect(auto.encode('Café')).toEqual(Uint8Array.of(0x43, 0x61, 0x66, 0xe9));
    expect(auto.encode('Я')).toEqual(Uint8Array.of(0xdf));
    expect(auto.encode('Łódź')).toEqual(enc('utf8', 'Łódź'));
    expect(auto.byteLength('Łódź')).toBe(7);
  });
});
