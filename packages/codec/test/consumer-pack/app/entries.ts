/**
 * Every entry of the packed packages but `@gamequery/codec/rx`, loaded at once: type-checked
 * with main.ts (so every declaration file they reach is checked too) and run with rxjs not
 * installed. Prints each entry's number of runtime exports as JSON.
 */
import * as codec from '@gamequery/codec';
import * as codecClient from '@gamequery/codec/client';
import * as codecDefine from '@gamequery/codec/define';
import * as codecEmulator from '@gamequery/codec/emulator';
import * as codecExport from '@gamequery/codec/export';
import * as codecInternal from '@gamequery/codec/internal';
import * as codecNode from '@gamequery/codec/node';
import * as pairing from '@gamequery/codec/pairing';
import * as dissect from '@gamequery/dissect';
import * as dissectNode from '@gamequery/dissect/node';

const entries: Record<string, object> = {
  '@gamequery/codec': codec,
  '@gamequery/codec/client': codecClient,
  '@gamequery/codec/define': codecDefine,
  '@gamequery/codec/emulator': codecEmulator,
  '@gamequery/codec/export': codecExport,
  '@gamequery/codec/internal': codecInternal,
  '@gamequery/codec/node': codecNode,
  '@gamequery/codec/pairing': pairing,
  '@gamequery/dissect': dissect,
  '@gamequery/dissect/node': dissectNode,
};
console.log(JSON.stringify(Object.fromEntries(Object.entries(entries).map(([name, module]) => [name, Object.keys(module).length]))));
