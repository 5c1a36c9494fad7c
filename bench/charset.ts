/**
 * Charset `auto` (packages/codec/src/grammar/detect.ts, the codec in charset.ts): its accuracy on the corpus of server
 * names by byte length, its cost per string, and that an all-ASCII reply costs what it did.
 */
import { samp } from '@gamequery/codec';
import { ByteSink, textCodec, internals } from '@gamequery/codec/internal';
import { detect } from '../packages/codec/src/grammar/detect.ts';
import { accuracyByLength, corpus } from '../packages/codec/test/corpus/server-names.ts';
import { benchGroup } from './harness.ts';

export function benchCharset(): void {
  console.log('\ncharset auto: accuracy on the corpus of server names (7 languages, each charset that holds them; names and their words)');
  for (const b of accuracyByLength((bytes) => detect(bytes)?.charset)) {
    console.log(
      `  ${b.bucket.padEnd(12)} ${String(b.correct).padStart(4)} / ${String(b.samples).padEnd(4)} ${((100 * b.correct) / b.samples).toFixed(1).padStart(5)} %`,
    );
  }
  const samples = corpus();
  let i = 0;
  const strings = (charset: string) => samples.filter((s) => s.charset === charset).map((s) => s.bytes);
  const [cyrillic, latin, utf8] = [strings('windows-1251'), strings('windows-1252'), strings('utf8')];
  benchGroup('charset auto: detect one string of the corpus (whole names and words)', 'strings', [
    { name: 'windows-1251 text', run: () => detect(cyrillic[i++ % cyrillic.length]!) },
    { name: 'windows-1252 text', run: () => detect(latin[i++ % latin.length]!) },
    { name: 'UTF-8 text', run: () => detect(utf8[i++ % utf8.length]!) },
  ]);
  const at = { serverIp: '127.0.0.1', serverPort: 7777, password: false, players: 13, maxPlayers: 250 };
  const ascii = samp.infoResponse.encode({ ...at, hostname: 'My SA-MP Server', gamemode: 'Freeroam', language: 'English' });
  const russian = samp.infoResponse.encode(
    { ...at, hostname: 'Русский сервер | Москва RP', gamemode: 'Ролевая игра', language: 'Русский' },
    { charset: 'windows-1251' },
  );
  const sink = new ByteSink();
  const emit = (bytes: Uint8Array, charset: 'auto' | 'windows-1252' | 'windows-1251'): number => {
    sink.at = 0;
    internals(samp.infoResponse).emitJson(bytes, sink, { charset });
    return sink.at;
  };
  if (textCodec('auto').decode(ascii) !== textCodec('windows-1252').decode(ascii)) throw new Error('auto reads ASCII otherwise');
  benchGroup(`SA:MP i response, all ASCII (${ascii.length} bytes): emitJson`, 'packets', [
    { name: 'charset windows-1252', run: () => emit(ascii, 'windows-1252') },
    { name: 'charset auto', run: () => emit(ascii, 'auto') },
  ]);
  benchGroup(`SA:MP i response, windows-1251 strings (${russian.length} bytes): emitJson`, 'packets', [
    { name: 'charset windows-1251', run: () => emit(russian, 'windows-1251') },
    { name: 'charset auto', run: () => emit(russian, 'auto') },
  ]);
}
