/**
 * The RxJS entry, once the consumer has installed rxjs (its optional peer dependency):
 * compiled and run like main.ts. Prints the kinds of the pairing events as JSON.
 */
import { readFileSync } from 'node:fs';
import { lastValueFrom, from, toArray } from 'rxjs';
import { fromHex } from '@gamequery/codec';
import { pairQueries, type Datagram } from '@gamequery/codec/rx';

const vectors = JSON.parse(readFileSync(new URL('vectors.json', import.meta.url), 'utf8')) as { sampRequest: string; sampResponse: string };
const client = { address: '127.0.0.1', port: 50000 };
const server = { address: '127.0.0.1', port: 7777 };
const datagrams: Datagram[] = [
  { bytes: fromHex(vectors.sampRequest), from: client, to: server, time: 1_000_000n },
  { bytes: fromHex(vectors.sampResponse), from: server, to: client, time: 1_250_000n },
];
const events = await lastValueFrom(from(datagrams).pipe(pairQueries(), toArray()));
console.log(JSON.stringify(events.map((event) => event.kind)));
