/**
 * A project outside the repository using the packed packages: compiled with `strict`,
 * `exactOptionalPropertyTypes` and `skipLibCheck: false` under `moduleResolution` bundler and
 * node16, then run by Node with rxjs not installed. Prints one JSON line of what it found;
 * pack.test.ts compares it with the test vectors. Reads `vectors.json` (hex strings) beside it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TruncatedError, decodePacket, fromHex, samp, type DecodedPacket, type FieldNode } from '@gamequery/codec';
import { defineLayout, magic, prefixedString, u8 } from '@gamequery/codec/define';
import { QueryPairer, type Datagram, type PairingEvent } from '@gamequery/codec/pairing';
import { exportKaitai } from '@gamequery/codec/export';
import { dissectHexDump, type PacketRecord } from '@gamequery/dissect';

interface Vectors {
  readonly sampRequest: string;
  readonly sampResponse: string;
  readonly mcResponse: string;
}
const vectors = JSON.parse(readFileSync(new URL('vectors.json', import.meta.url), 'utf8')) as Vectors;

// The union narrows to the layout's own value type: no cast.
const reply: DecodedPacket = decodePacket(fromHex(vectors.sampResponse));
const hostname = reply.protocol === 'samp' && reply.direction === 'response' && reply.message === 'info' ? reply.value.hostname : undefined;

const mc = decodePacket(fromHex(vectors.mcResponse), { protocol: 'mcquery', direction: 'response' });
const mcHostname =
  mc.protocol === 'mcquery' && mc.message === 'full' && mc.direction === 'response'
    ? mc.value.kv.find((entry) => entry.key === 'hostname')?.value
    : undefined;

// Typed errors carry where the bytes ran out.
let truncated: { offset: number; needed: number } | undefined;
try {
  samp.infoResponse.decode(fromHex(vectors.sampResponse).subarray(0, 25));
} catch (error) {
  if (error instanceof TruncatedError) truncated = { offset: error.info.offset, needed: error.info.needed ?? -1 };
}

// A layout of the consumer's own.
const hello = defineLayout({
  protocol: 'acme',
  message: 'hello',
  direction: 'request',
  title: 'Hello',
  fields: [
    magic('ACME', { abbrev: 'acme.magic', label: 'Magic' }),
    u8('version', { abbrev: 'acme.version', label: 'Version' }),
    prefixedString('name', 'u8', { abbrev: 'acme.name', label: 'Name' }),
  ],
});
const helloBytes = hello.encode({ version: 2, name: 'consumer' });
const helloValue: { version: number; name: string } = hello.decode(helloBytes).value;
const helloTree: FieldNode[] = hello.annotate(helloBytes).fields;

// The pairing core, without RxJS.
const client = { address: '127.0.0.1', port: 50000 };
const server = { address: '127.0.0.1', port: 7777 };
const request: Datagram = { bytes: fromHex(vectors.sampRequest), from: client, to: server, time: 1_000_000n };
const response: Datagram = { bytes: fromHex(vectors.sampResponse), from: server, to: client, time: 1_250_000n };
const pairer = new QueryPairer();
const events: PairingEvent[] = [...pairer.receive(request), ...pairer.receive(response), ...pairer.flush()];
const exchange = events.find((event) => event.kind === 'exchange');

// The dissector on a hex dump, and its JSON Schema from the package.
const dissected: PacketRecord[] = dissectHexDump(`${vectors.sampResponse}\n`).packets;
const schemaPath = createRequire(import.meta.url).resolve('@gamequery/dissect/schema/packet.schema.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as { title: string };

console.log(
  JSON.stringify({
    hostname,
    mcHostname,
    truncated,
    hello: { value: helloValue, fields: helloTree.map((node) => node.abbrev) },
    kaitai: [...exportKaitai([hello]).keys()],
    exchange:
      exchange?.kind === 'exchange'
        ? { message: exchange.request.message, rtt: String(exchange.rtt), responses: exchange.responses.length }
        : undefined,
    dissected: dissected.map((packet) => packet.summary),
    schema: schema.title,
  }),
);
