/** `gamequery decode`: decode one datagram given as hex (arguments, a file or stdin). */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { charsets, fromHex, type Charset, type PacketHint } from '@gamequery/codec';
import { dissectPayload, nodeJson, renderTree } from '@gamequery/dissect';

interface Opts { file?: string; protocol?: PacketHint['protocol']; direction?: PacketHint['direction']; message?: string; charset?: Charset; format: 'text' | 'json'; showSecrets?: boolean }

/** Hex from a test vector (its "hex" key) or from plain text. */
function hexOf(text: string): string {
  const t = text.trim();
  if (t.startsWith('{')) return String((JSON.parse(t) as { hex?: unknown }).hex ?? '');
  return t.replace(/0x/gi, '').replace(/[^0-9a-fA-F]/g, '');
}

export function decodeCommand(): Command {
  return new Command('decode')
    .description('decode one datagram given as hex: arguments, --file (hex text or a test vector), or stdin')
    .argument('[hex...]', 'payload bytes in hex')
    .option('-f, --file <path>', 'read hex (or a test-vector JSON file) from a file')
    .addOption(new Option('--protocol <name>', 'protocol, when the bytes cannot tell').choices(['samp', 'vcmp', 'mcquery']))
    .addOption(new Option('--direction <dir>', 'direction, when the bytes cannot tell').choices(['request', 'response']))
    .option('--message <name>', 'message name, e.g. full (Minecraft responses)')
    .addOption(new Option('--charset <name>', 'charset of strings').choices([...charsets]))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--show-secrets', 'show RCON passwords in clear')
    .action((hexArgs: string[], opts: Opts) => {
      const text = opts.file ? readFileSync(opts.file, 'utf8') : hexArgs.length ? hexArgs.join('') : readFileSync(0, 'utf8');
      const bytes = fromHex(hexOf(text));
      const hint: PacketHint = { ...(opts.protocol && { protocol: opts.protocol }), ...(opts.direction && { direction: opts.direction }), ...(opts.message && { message: opts.message }) };
      const d = dissectPayload(bytes, hint, opts.charset ? { charset: opts.charset } : {});
      if (opts.format === 'json') {
        const { fields, value: _value, ...rest } = d;
        process.stdout.write(JSON.stringify({ ...rest, fields: fields.map((n) => nodeJson(n, !!opts.showSecrets)) }, null, 2) + '\n');
      } else {
        process.stdout.write([d.summary, ...renderTree(d.fields, { showSecrets: !!opts.showSecrets, indent: 1 })].join('\n') + '\n');
      }
      if (d.error) process.exitCode = 1;
    });
}
