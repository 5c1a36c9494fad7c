/**
 * `gamequery dissect FILE`: a pcap/pcapng capture (streamed) or a hex dump, field by
 * field, as tshark -V-like text, JSON or NDJSON.
 */
import { createReadStream, openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { Command, Option } from 'commander';
import { charsets, type Charset, type Protocol } from '@gamequery/codec';
import {
  Dissector, dissectCapture, dissectHexDump, packetJson, packetLine, renderPacketText,
  type DissectOptions, type PacketRecord, type RenderOptions,
} from '@gamequery/dissect';

interface Opts {
  format?: 'text' | 'json' | 'ndjson';
  hex?: boolean;
  field: string[];
  protocol?: Protocol;
  port: number[];
  charset?: Charset;
  timeout: number;
  showSecrets?: boolean;
  colour?: boolean;
}

const CAPTURE_MAGICS = ['a1b2c3d4', 'd4c3b2a1', 'a1b23c4d', '4d3cb2a1', '0a0d0d0a'];

function isCapture(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && CAPTURE_MAGICS.includes(head.toString('hex'));
  } finally {
    closeSync(fd);
  }
}

const collect = <T>(parse: (v: string) => T) => (value: string, previous: T[]): T[] => [...previous, parse(value)];

export function dissectCommand(): Command {
  return new Command('dissect')
    .description('annotate a pcap/pcapng capture or a hex dump field by field, Wireshark-style')
    .argument('<file>', 'capture file (pcap, pcapng) or text with a hex dump ("-" for stdin)')
    .addOption(new Option('-F, --format <format>', 'output: text (default on a terminal), json, ndjson').choices(['text', 'json', 'ndjson']))
    .option('-x, --hex', 'add a hex pane (tshark -x style) marking the bytes of the --field fields')
    .option('-e, --field <abbrev>', 'show only this field (repeatable), like tshark -T fields -e', collect(String), [])
    .addOption(new Option('--protocol <name>', 'decode traffic on --port as this protocol').choices(['samp', 'vcmp', 'mcquery']))
    .option('--port <port>', 'port for --protocol (repeatable)', collect(Number), [])
    .addOption(new Option('--charset <name>', 'charset of strings').choices([...charsets]))
    .option('--timeout <ms>', 'how long a request waits for its reply, in capture time', Number, 5000)
    .option('--show-secrets', 'show RCON passwords in clear')
    .option('--no-colour', 'no colour in the hex pane even on a terminal')
    .action(async (file: string, opts: Opts) => {
      const format = opts.format ?? (process.stdout.isTTY ? 'text' : 'json');
      if (opts.protocol && !opts.port.length) throw new Error('--protocol needs at least one --port');
      const options: DissectOptions = {
        timeoutMs: opts.timeout,
        ...(opts.charset ? { charset: opts.charset } : {}),
        ...(opts.protocol ? { decodeAs: { protocol: opts.protocol, ports: opts.port } } : {}),
      };
      const render: RenderOptions = {
        showSecrets: !!opts.showSecrets, hex: !!opts.hex, fields: opts.field,
        colour: opts.colour !== false && !!process.stdout.isTTY,
      };
      const out = new Output(format, render);
      if (file !== '-' && isCapture(file)) {
        const dissector = new Dissector(options);
        const progress = new Progress(dissector);
        try {
          for await (const item of dissectCapture(createReadStream(file, { highWaterMark: 1 << 16 }), options, dissector)) {
            if (item.kind === 'packet') out.packet(item.packet);
            else out.error({ type: 'CaptureError', code: item.code, offset: item.offset, message: item.message });
            progress.tick();
            // A pipe to a slower reader fills: wait for it rather than hold the output in memory.
            if (out.full) await out.drained();
          }
        } finally {
          progress.done();
        }
        out.end(dissector.stats);
      } else {
        const text = readFileSync(file === '-' ? 0 : file, 'utf8');
        const r = dissectHexDump(text, options);
        for (const p of r.packets) out.packet(p);
        for (const d of r.diagnostics) if (d.severity === 'error') out.error({ type: 'HexDumpError', code: d.code, line: d.line, column: d.column, message: d.message });
        for (const d of r.diagnostics) if (d.severity === 'warning') process.stderr.write(`gamequery: ${d.message}\n`);
        out.end(r.stats);
      }
    });
}

/**
 * Writes packets as they come: text blocks, NDJSON lines, or one JSON document. Machine
 * formats are written in blocks of about 64 KiB (one write per packet would cost more
 * than the dissection); text goes out per packet, for a reader watching it. `full` says
 * stdout is holding more than its buffer (a pipe's reader is behind): the caller waits
 * for 'drain', so memory stays flat whatever reads the output.
 */
class Output {
  #first = true;
  #errors: object[] = [];
  #pending = '';
  full = false;
  constructor(readonly format: 'text' | 'json' | 'ndjson', readonly render: RenderOptions) {
    if (format === 'json') this.#write('{\n"packets": [\n');
  }

  packet(p: PacketRecord): void {
    if (this.format === 'text') {
      this.#out((this.#first ? '' : '\n') + renderPacketText(p, this.render).join('\n') + '\n');
    } else if (this.format === 'ndjson') {
      this.#write(packetLine(p, this.render) + '\n');
    } else {
      this.#write((this.#first ? '' : ',\n') + packetLine(p, this.render));
    }
    this.#first = false;
  }

  error(e: { readonly type: string; readonly message: string } & Record<string, unknown>): void {
    this.#errors.push(e);
    process.exitCode = 1;
    if (this.format === 'text') process.stderr.write(`gamequery: ${e.message}\n`);
    if (this.format === 'ndjson') this.#write(JSON.stringify({ error: e }) + '\n');
  }

  end(stats: object): void {
    if (this.format === 'json') {
      this.#write(`\n],\n"errors": ${JSON.stringify(this.#errors)},\n"stats": ${JSON.stringify(stats)}\n}\n`);
    }
    this.#flush();
  }

  #write(text: string): void {
    this.#pending += text;
    if (this.#pending.length >= 1 << 16) this.#flush();
  }

  #flush(): void {
    if (this.#pending) this.#out(this.#pending);
    this.#pending = '';
  }

  #out(text: string): void {
    if (!process.stdout.write(text)) this.full = true;
  }

  /** Resolves once stdout has written what it holds. */
  async drained(): Promise<void> {
    if (this.full) await once(process.stdout, 'drain');
    this.full = false;
  }
}

/** A progress line on stderr, only on a TTY and only after the first second. */
class Progress {
  readonly #start = Date.now();
  #shown = false;
  #next = 0;
  constructor(readonly dissector: Dissector) {}
  tick(): void {
    if (!process.stderr.isTTY || ++this.#next % 4096) return;
    const elapsed = Date.now() - this.#start;
    if (elapsed < 1000) return;
    this.#shown = true;
    const s = this.dissector.stats;
    process.stderr.write(`\r${s.frames} frames, ${s.game} query packets, ${Math.round(s.frames / (elapsed / 1000))} frames/s`);
  }
  done(): void {
    if (this.#shown) process.stderr.write('\n');
  }
}
