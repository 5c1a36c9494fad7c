/**
 * `gamequery decode`: decode one datagram given as hex (arguments, a file or stdin). The text
 * is read by the dissector's hex-dump parser, so every dump `dissect` reads is read here too
 * (xxd, hexdump -C, od, tcpdump -X, tshark -x, C arrays); a dumped frame is taken down to its
 * UDP payload. Bare hex must be only hex: a stray character is a usage error naming it.
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { builtInProtocols, charsetChoices, protocolSet, type Charset, type PacketHint } from '@gamequery/codec';
import { escapeControls } from '@gamequery/codec/internal';
import { Dissector, isFrameRecord, dissectPayload, nodeJson, parseHexDump, renderTree } from '@gamequery/dissect';
import { dumpedPayload } from '@gamequery/dissect/internal';
import { PROTOCOL_HELP, declarationOf, parseProtocol, formatOption } from '../args.ts';

interface Opts {
  file?: string;
  protocol?: PacketHint['protocol'];
  direction?: PacketHint['direction'];
  message?: string;
  charset?: Charset;
  format: 'text' | 'json';
  showSecrets?: boolean;
}

/** A usage error: exit 2 (cli.ts). */
class DecodeInputError extends Error {}

/** Characters of bare hex besides the digits: blanks, line breaks, `:` `-` `,` separators (and `0x`, removed first). */
const SEPARATORS = /[\s:,-]/;

/** The first character of `text` that bare hex may not hold, with its 1-based line and column. */
function stray(text: string): { char: string; line: number; column: number; position: number } | undefined {
  const masked = text.replace(/0x(?=[0-9a-f])/gi, '  ');
  let line = 1;
  let column = 0;
  for (let i = 0; i < masked.length; i++) {
    const c = masked[i]!;
    column++;
    if (c === '\n') {
      line++;
      column = 0;
      continue;
    }
    if (!/[0-9a-fA-F]/.test(c) && !SEPARATORS.test(c)) return { char: c, line, column, position: i + 1 };
  }
  return undefined;
}

/** A test vector's fields (test-vectors/schema.json) as read; `hex` checked by {@link datagramOf}. */
interface Vector {
  readonly hex?: unknown;
  readonly protocol?: unknown;
  readonly direction?: unknown;
  readonly message?: unknown;
}

/**
 * What a test vector says of its datagram: its protocol, message and direction, as a hint (a
 * ping reply is its request's bytes; a Minecraft reply has no magic).
 */
function vectorHint(v: Vector): PacketHint {
  const protocol = builtInProtocols.find((p) => p.name === v.protocol);
  if (!protocol) return {};
  const direction = v.direction === 'request' || v.direction === 'response' ? v.direction : undefined;
  const message = typeof v.message === 'string' && v.message in protocol.messages ? v.message : undefined;
  return { protocol: protocol.name, ...(direction && { direction }), ...(message && { message }) } as PacketHint;
}

/** The one datagram in `text` (a test vector, read once, or a dump or bare hex), with what a test vector says of it. */
function datagramOf(text: string): { readonly bytes: Uint8Array; readonly hint: PacketHint } {
  const t = text.trim();
  if (!t.startsWith('{')) return { bytes: bytesOf(text), hint: {} };
  let v: Vector;
  try {
    v = JSON.parse(t) as Vector;
  } catch (e) {
    throw new DecodeInputError(`not a test vector: ${(e as Error).message}`);
  }
  if (typeof v.hex !== 'string') throw new DecodeInputError('the test vector has no "hex" string');
  return { bytes: bytesOf(v.hex), hint: vectorHint(v) };
}

/** The bytes of the one datagram in `text`: a dump, or bare hex. */
function bytesOf(text: string): Uint8Array {
  const r = parseHexDump(text);
  const error = r.diagnostics.find((d) => d.severity === 'error');
  if (r.packets.length === 1 && error === undefined) return r.packets[0]!.bytes;
  const s = stray(text);
  if (s !== undefined && (r.packets.length === 0 || r.packets.every((p) => p.format === 'bare' || p.format === 'prefixed'))) {
    const where = text.includes('\n') ? `line ${s.line}, column ${s.column}` : `position ${s.position}`;
    throw new DecodeInputError(
      `'${escapeControls(s.char)}' at ${where} is not hex (decode takes hex digits, or a dump such as xxd, hexdump -C, od, tcpdump -X or tshark -x print)`,
    );
  }
  if (error !== undefined) throw new DecodeInputError(escapeControls(error.message));
  if (r.packets.length === 0) throw new DecodeInputError('no hex in the input');
  throw new DecodeInputError(
    `${r.packets.length} packets in the dump (the second at line ${r.packets[1]!.firstLine}): decode takes one; gamequery dissect reads them all`,
  );
}

/** Bare hex in one argument: digits in pairs, with `0x` prefixes and `:` `,` `-` separators. */
const BARE = /^(?:(?:0x)?[0-9a-f]{2}[:,-]?)+$/i;

/**
 * The text of the hex arguments: several arguments of bare hex are one datagram, in order
 * (`decode 53414d50 7f000001 …`); anything else (a dump pasted as words) is read as a dump.
 */
function argumentsText(args: readonly string[]): string {
  return args.every((a) => BARE.test(a)) ? args.map((a) => a.replace(/0x|[:,-]/gi, '')).join('') : args.join(' ');
}

/** A codec message's hint in command-line terms: `{ protocol: "mcquery", direction: "response" }` → the options. */
const cliHint = (message: string): string =>
  message.replace(/pass the hint \{ protocol: "(\w+)", direction: "(\w+)" \}/, 'pass --protocol $1 --direction $2');

/** The built-in protocols, for a reply without magic read by its shape. */
const builtIn = protocolSet(builtInProtocols);

/** A dumped frame (Ethernet, Linux cooked, raw IP), down to its UDP payload; anything else as it is. */
function payloadOf(bytes: Uint8Array, hint: PacketHint): Uint8Array {
  if (!dissectPayload(bytes, hint).error) return bytes;
  return dumpedPayload(bytes) ?? bytes;
}

export function decodeCommand(): Command {
  return new Command('decode')
    .description('decode one datagram given as hex: arguments, --file (hex text, a dump or a test vector), or stdin')
    .argument('[hex...]', 'payload bytes in hex')
    .option('-f, --file <path>', 'read hex, a hex dump (xxd, hexdump -C, od, tcpdump -X, tshark -x) or a test-vector JSON file')
    .option('--protocol <name>', `protocol, when the bytes cannot tell: ${PROTOCOL_HELP}`, parseProtocol)
    .addOption(new Option('--direction <dir>', 'direction, when the bytes cannot tell').choices(['request', 'response']))
    .option('--message <name>', 'message name, e.g. full (Minecraft responses)')
    .addOption(
      new Option(
        '--charset <name>',
        'charset of the strings; auto (the default) decides per string between UTF-8, windows-1251 and windows-1252 and puts charset and confidence on non-ASCII fields in JSON',
      ).choices([...charsetChoices]),
    )
    .addOption(formatOption(true))
    .option('--show-secrets', 'show RCON passwords in clear')
    .addHelpText(
      'after',
      `
Exit codes: 0 decoded; 1 the datagram is malformed (what decodes is still shown);
2 no hex, a character that is not hex, or a dump of several packets.`,
    )
    .action((hexArgs: string[], opts: Opts) => {
      const text = opts.file ? readFileSync(opts.file, 'utf8') : hexArgs.length ? argumentsText(hexArgs) : readFileSync(0, 'utf8');
      let given: ReturnType<typeof datagramOf>;
      try {
        given = datagramOf(text);
      } catch (e) {
        if (!(e instanceof DecodeInputError)) throw e;
        throw new Error(`${opts.file ? `${opts.file}: ` : ''}${e.message}`);
      }
      // A test vector's protocol, message and direction, unless the options say otherwise.
      const hint: PacketHint = {
        ...(opts.protocol || opts.direction || opts.message ? {} : given.hint),
        ...(opts.protocol && { protocol: opts.protocol }),
        ...(opts.direction && { direction: opts.direction }),
        ...(opts.message && { message: opts.message }),
      };
      const bytes = payloadOf(given.bytes, hint);
      const codec = opts.charset ? { charset: opts.charset } : {};
      let d = dissectPayload(bytes, hint, codec);
      if (!d.protocol && !hint.protocol) {
        // No signature: a reply that carries none (Minecraft's) is read by its shape, as dissect reads one.
        const shape = builtIn.shapeOf(bytes);
        if (shape) {
          d = dissectPayload(bytes, { protocol: shape.protocol, direction: 'response', message: shape.message }, codec);
          process.stderr.write(
            `gamequery: no signature: read as a ${declarationOf(shape.protocol).shortTitle} ${shape.message} response by its shape (--protocol to say otherwise)\n`,
          );
        } else {
          // A protocol's magic with a type byte no message has: the header it could read, as dissect shows it.
          const dissector = new Dissector(codec);
          const claimed = [...dissector.pushPayload(1, bytes), ...dissector.finish()][0];
          if (claimed && !isFrameRecord(claimed) && claimed.malformed) {
            const { protocol, direction, message, layout, summary, fields, malformed } = claimed;
            const shown = fields.map((n) => nodeJson(n, !!opts.showSecrets));
            process.stdout.write(
              opts.format === 'json'
                ? JSON.stringify(
                    { protocol, direction, message, layout, summary, fields: shown, warnings: [], error: malformed, length: bytes.length },
                    null,
                    2,
                  ) + '\n'
                : [summary, ...renderTree(fields, { showSecrets: !!opts.showSecrets, indent: 1 })].map(escapeControls).join('\n') + '\n',
            );
            process.exitCode = 1;
            return;
          }
          // Nothing to show: the reason on stderr, with the options that would settle it.
          process.stderr.write(`gamequery: ${escapeControls(cliHint(d.summary))}\n`);
          process.exitCode = 1;
          return;
        }
      }
      if (opts.format === 'json') {
        const { fields, value: _value, ...rest } = d;
        process.stdout.write(JSON.stringify({ ...rest, fields: fields.map((n) => nodeJson(n, !!opts.showSecrets)) }, null, 2) + '\n');
      } else {
        process.stdout.write(
          [d.summary, ...renderTree(d.fields, { showSecrets: !!opts.showSecrets, indent: 1 })].map(escapeControls).join('\n') + '\n',
        );
      }
      if (d.error) process.exitCode = 1;
    });
}
