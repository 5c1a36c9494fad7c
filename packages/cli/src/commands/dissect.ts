/**
 * `gamequery dissect FILE`: a pcap/pcapng capture (streamed) or a hex dump, field by
 * field, as tshark -V-like text, JSON or NDJSON. What FILE is comes from its first bytes
 * (node/input.ts): a capture file is read in two passes, a pipe or gzip in one, text as a
 * hex dump; anything else is refused. With -i, a live capture instead (live.ts).
 */
import { once } from 'node:events';
import { Command, Option } from 'commander';
import { charsetChoices, type Charset, type Protocol } from '@gamequery/codec';
import { ByteSink, escapeControls } from '@gamequery/codec/internal';
import {
  Dissector,
  FirstPassStats,
  NotAHexDumpError,
  BLANK,
  FieldsLine,
  captureStats,
  isFrameRecord,
  dissectCaptureBatches,
  dissectHexDumpStream,
  newStats,
  type DissectBatch,
  type DissectOptions,
  type DissectStats,
  type HexBatch,
  type DissectedRecord,
  type PacketRecord,
  type RenderOptions,
  type TimeFormat,
  type Timestamp,
  TIME_FORMATS,
  PcapngWriter,
} from '@gamequery/dissect';
import { writePacketLine, writePacketSummary, writePacketText } from '@gamequery/dissect/internal';
import { InputError, dissectCaptureFile, fileChunks, inputName, openInput } from '@gamequery/dissect/node';
import { EXIT, PROTOCOL_HELP, collectField, collectPort, integer, parseProtocol } from '../args.ts';
import { captureStart, ioRowHeading, ioRowLine } from '@gamequery/dissect';
import { HtmlWriter } from '@gamequery/dissect';
import { basename } from 'node:path';
import { StatsTap, VIEW_HELP, addViewOptions, chooseView, displayFilter, type View, type ViewOpts } from './view.ts';
import { LIVE_HELP, LiveRun, addLiveOptions, inputLabel, printInterfaces, type LiveOpts } from './live.ts';
import { heapTick } from '../heap.ts';
import { FileOut } from '../file-out.ts';

interface Opts extends ViewOpts, LiveOpts {
  format?: 'text' | 'json' | 'ndjson' | 'html';
  hex?: boolean;
  field: string[];
  protocol?: Protocol;
  port: number[];
  charset?: Charset;
  timeout: number;
  duplicateWindow: number;
  showSecrets?: boolean;
  colour?: boolean;
  jobs?: number;
  count?: number;
  lineBuffered?: boolean;
  timeFormat?: TimeFormat;
}

export function dissectCommand(): Command {
  return addLiveOptions(addViewOptions(new Command('dissect')))
    .description('annotate a pcap/pcapng capture, a hex dump or a live capture field by field, Wireshark-style')
    .argument('[file]', 'capture file (pcap, pcapng) or text with a hex dump ("-" for stdin); none with -i')
    .addOption(
      new Option(
        '-F, --format <format>',
        'output: text (the tree), json, ndjson, html (one page: packet list, tree and hex pane linked)',
      ).choices(['text', 'json', 'ndjson', 'html']),
    )
    .option('-x, --hex', 'add a hex pane (tshark -x style) marking the bytes of the --field fields')
    .option(
      '-e, --field <abbrev>',
      "a field to print (repeatable): tshark -T fields lines, or with -V, -x or -F text the tree's fields; any name -Y takes (gamequery fields lists them)",
      collectField,
      [],
    )
    .option(
      '--protocol <name>',
      `decode every UDP payload as this protocol, or with --port only traffic to or from those ports (Wireshark's Decode As): ${PROTOCOL_HELP}`,
      parseProtocol,
    )
    .option('--port <port>', 'limit --protocol to this port, 1-65535 (repeatable)', collectPort, [])
    .option(
      '-c, --count <n>',
      'stop after writing this many packets, as tshark -a packets:N (tshark -c counts packets read, which differs where -Y leaves some out); with -q and no -Y, after this many frames',
      integer(1, Number.MAX_SAFE_INTEGER),
    )
    .addOption(
      new Option(
        '-t, --time-format <format>',
        "the summary lines' time column, as tshark -t: r seconds since the first frame (the default), d since the frame before, dd since the packet shown before, e since the epoch, a/ad/adoy local time of day (with the date, with the day of the year), u/ud/udoy the same in UTC",
      ).choices([...TIME_FORMATS]),
    )
    .option('-l, --line-buffered', 'flush the output after each packet, like tshark -l (a pipe or -i is flushed after each read anyway)')
    .addOption(
      new Option(
        '--charset <name>',
        'charset of the strings; auto (the default) decides per string between UTF-8, windows-1251 and windows-1252 and puts charset and confidence on non-ASCII fields in JSON',
      ).choices([...charsetChoices]),
    )
    .option('--timeout <ms>', 'how long a request waits for its reply, in capture time', Number, 5000)
    .option(
      '--duplicate-window <ms>',
      'how long a finished exchange is remembered, in capture time, to mark repeated and late replies (0: not at all; faster on dense captures)',
      Number,
      5000,
    )
    .option(
      '--show-secrets',
      'show RCON passwords in clear, and let -Y compare them in clear (without it, -Y sees them masked, as the output shows them)',
    )
    .option('--no-colour', 'no colour in the hex pane even on a terminal')
    .option(
      '-j, --jobs <n>',
      'kept for scripts that pass it: a capture is dissected in one thread, two passes over the file (worker threads lost to it on every machine measured; see the README)',
      Number,
      1,
    )
    .addHelpText('after', VIEW_HELP + LIVE_HELP)
    .action(async (given: string | undefined, opts: Opts) => {
      if (opts.listInterfaces) {
        printInterfaces();
        return;
      }
      // The file, or with -i the interface (live.ts): what messages and the page's title name.
      const file = inputLabel(given, opts);
      const view = chooseView(opts);
      const filter = displayFilter(opts);
      if (opts.port.length && !opts.protocol) throw new Error("--port needs --protocol (the protocol to decode that port's traffic as)");
      for (const [flag, ms] of [
        ['--timeout', opts.timeout],
        ['--duplicate-window', opts.duplicateWindow],
      ] as const) {
        if (!(Number.isFinite(ms) && ms >= 0)) throw new Error(`${flag} must be a number of milliseconds ≥ 0, got ${ms}`);
      }
      const tap = new StatsTap(opts);
      // -w FILE without -i: the packets the display filter passes, written again (with -i, the capture itself: live.ts).
      const keeps = opts.write !== undefined && opts.interface === undefined;
      const fields =
        view === 'fields'
          ? new FieldsLine(opts.field, {
              ...opts.fieldOption,
              showSecrets: !!opts.showSecrets,
              ...(opts.timeFormat ? { timeFormat: opts.timeFormat } : {}),
            })
          : undefined;
      const options: DissectOptions = {
        showSecrets: !!opts.showSecrets,
        // The tree's JSON is written while decoding only for output that copies it (whole trees as JSON).
        treeJson: (view === 'json' || view === 'ndjson') && !opts.field.length,
        timeoutMs: opts.timeout,
        duplicateWindowMs: opts.duplicateWindow,
        ...(opts.charset ? { charset: opts.charset } : {}),
        ...(opts.protocol ? { decodeAs: { protocol: opts.protocol, ports: opts.port } } : {}),
        ...(filter ? { filter } : {}),
        // Text lists every frame, as tshark does; JSON keeps its shape (query packets only). The rate over time (-z io,stat, the page's charts) and the protocol hierarchy (-z io,phs) count every frame.
        // -w from a file or pipe: every frame the filter passes is written, with a query message or not.
        allFrames: ((view === 'summary' || view === 'tree' || view === 'fields') && !opts.quiet) || tap.everyFrame || keeps,
        // -T fields: a frame whose line is blank (none of the fields named can be in it) needs no record, nor one whose
        // line the frame's layers give (frame.number, ip.src, udp.port): its frame record is made, no message read.
        // Statistics read every record.
        ...(fields && !tap.on && !keeps ? { needs: (layout: string | undefined) => fields.needs(layout), unneeded: fields.unneeded } : {}),
        // ... and where its lines read the packets' own messages and layers alone, no link: a file may be read once (pairing/alone.ts).
        ...(fields && !tap.on && !keeps && fields.linkless ? { links: false } : {}),
      };
      const render: RenderOptions = {
        showSecrets: !!opts.showSecrets,
        hex: !!opts.hex,
        fields: opts.field,
        colour: opts.colour !== false && !!process.stdout.isTTY,
        layers: view === 'tree',
        ...(opts.onlyProtocols ? { only: new Set(opts.onlyProtocols) } : {}),
      };
      const out = new Output(
        view,
        render,
        tap,
        !!opts.quiet,
        !!opts.lineBuffered,
        opts.interface === undefined && file !== '-' ? file : undefined,
        view === 'tree' && !!opts.summary,
        opts.timeFormat,
      );
      if (fields) out.fieldsLine(fields, !!opts.fieldOption?.header);
      if (view === 'html')
        out.html = new HtmlWriter(out.sink, {
          title: `gamequery: ${file === '-' ? 'stdin' : basename(file)}`,
          showSecrets: !!opts.showSecrets,
        });
      const jobs = opts.jobs ?? 1;
      if (!(Number.isInteger(jobs) && jobs >= 1)) throw new Error(`--jobs must be a whole number ≥ 1, got ${opts.jobs}`);
      if (jobs > 1)
        process.stderr.write(
          `gamequery: --jobs ${jobs}: dissecting in one thread (worker threads were slower than one thread's two passes and used more memory)\n`,
        );
      // -i: a live capture, read once as a pipe is (live.ts).
      const live = opts.interface === undefined ? undefined : await LiveRun.open(opts);
      const input = live?.input ?? (await openInput(file));
      // Made once the input is open: a file that cannot be read leaves no empty capture behind.
      if (keeps) out.kept = new KeptCapture(opts.write!);
      // -T fields of the frame's layers alone reads no message (DissectOptions.unneeded; the record maker's readsNoMessage): no query packet is counted.
      const messageless =
        !!fields?.layersOnly && options.needs !== undefined && (!options.filter || !!options.filter.layers) && !options.decodeAs;
      const progress = new Progress(live === undefined, !messageless);
      // -c N and -a packets:N: the first N packets written; with -q and no display filter, the first N frames (tshark's -c).
      const count = Math.min(opts.count ?? Infinity, opts.autostop.packets ?? Infinity);
      if (input.kind !== 'text' && opts.quiet && out.tap.firstPass && !filter && !opts.protocol && !keeps) {
        // Statistics alone: the first pass counts them; no frame is read twice, none is held.
        const stats = newStats();
        const pass = new FirstPassStats(
          options,
          stats,
          out.tap.newSources(),
          out.tap.newIo(),
          out.tap.phs?.hierarchy,
          out.tap.conversations.map((c) => c.table),
        );
        out.stats = stats;
        const source = input.kind === 'capture-file' ? fileChunks(input.path) : input.chunks;
        try {
          // A live capture (-i, a pipe): each interval of -z io,stat written as it closes (as a line of the
          // table, or an NDJSON line of its own), the whole report at the end.
          const ndjson = out.format === 'ndjson';
          const io = input.kind !== 'capture-file' && input.live && (out.format === 'text' || ndjson) ? pass.io : undefined;
          let heading = false;
          const each = (): void => {
            progress.tick(stats);
            heapTick();
            const rows = io?.closed();
            if (!rows?.length) return;
            if (ndjson) {
              out.write(rows.map((r) => `${JSON.stringify({ ioRow: r })}\n`).join(''));
              return;
            }
            if (!heading)
              out.write(
                `IO statistics as they come, intervals of ${io!.interval} s (the table follows at the end)\n${ioRowHeading(io!.interval)}\n`,
              );
            heading = true;
            out.write(rows.map((r) => `${ioRowLine(r, io!.interval)}\n`).join(''));
          };
          // The input stopped as -c stops it when written packets reach it (below).
          const stop = (): void => {
            live?.stop();
            if (input.kind !== 'capture-file') input.stop();
          };
          const { error } = await captureStats(
            source,
            options,
            pass,
            each,
            count < Infinity ? { frames: count, reached: stop } : undefined,
          );
          out.tap.use(pass, pass.sourcesReport(), pass.io?.report());
          if (error) out.error({ type: 'CaptureError', code: error.code, offset: error.offset, message: error.message });
        } catch (e) {
          if (!(e instanceof InputError && e.info.code === 'bad-gzip')) throw e;
          out.tap.use(pass, pass.sourcesReport(), pass.io?.report());
          out.error({ type: 'InputError', code: e.info.code, message: e.message });
        } finally {
          progress.done();
        }
        await out.end(stats);
        await live?.end(stats);
        return;
      }
      let batches: AsyncIterable<DissectBatch<DissectedRecord> | HexBatch<DissectedRecord>>;
      let stats: DissectStats;
      if (input.kind === 'capture-file') {
        // Each batch is written before the next is asked for: its buffers can be reused.
        stats = newStats();
        batches = dissectCaptureFile(input.path, { ...options, reuseBuffers: true }, stats);
      } else if (input.kind === 'capture') {
        // Read once. As it comes (a pipe, a FIFO, -i): each record as soon as its exchange settles,
        // and while the input is quiet the clock moves on in wall time, so that an unanswered request
        // comes out. From a file (gzip), in frame order.
        // Each batch is written before the next is asked for, as from a file: its buffers can be reused.
        // -w: in capture order, as a capture file holds its frames (a pipe's records then wait for the exchanges before them).
        const streamed: DissectOptions = {
          ...options,
          reuseBuffers: true,
          ...(input.live ? { ...(keeps ? {} : { order: 'settled' as const }), idleMs: IDLE_MS } : {}),
        };
        const dissector = new Dissector(streamed);
        stats = dissector.stats;
        batches = dissectCaptureBatches(input.chunks, streamed, dissector);
      } else {
        const dissector = new Dissector(options);
        stats = dissector.stats;
        batches = dissectHexDumpStream(input.chunks, options, dissector);
      }
      // What comes as it is made is written as it comes.
      if (input.kind !== 'capture-file' && input.live) out.watch();
      out.stats = stats;
      try {
        let left = count;
        reading: for await (const batch of batches) {
          for (const p of batch.packets) {
            out.packet(p);
            // -c N: the rest of the input is not read (its errors included). A live capture is
            // stopped first: the reader may be waiting on it for a packet that never comes, and
            // leaving the loop waits for that read to end.
            if (--left === 0) {
              live?.stop();
              // A pipe the same: a read waiting on a writer that sends no more (`tcpdump … | gamequery dissect - -c 10`) ends now.
              if (input.kind !== 'capture-file') input.stop();
              break reading;
            }
          }
          const e = batch.error;
          if (e) out.error({ type: 'CaptureError', code: e.code, offset: e.offset, message: e.message });
          for (const d of ('diagnostics' in batch ? batch.diagnostics : undefined) ?? []) {
            if (d.severity === 'error')
              out.error({ type: 'HexDumpError', code: d.code, line: d.line, column: d.column, message: d.message });
            else out.warn(d.message);
          }
          progress.tick(stats);
          heapTick();
          // A pipe to a slower reader fills: wait for it rather than hold the output in memory.
          if (out.full) await out.drained();
        }
      } catch (e) {
        // Damage found while reading (a cut gzip): what came before it is written, then the error.
        if (e instanceof NotAHexDumpError) throw new Error(`${inputName(file)}: ${e.message}`);
        if (!(e instanceof InputError && e.info.code === 'bad-gzip')) throw e;
        out.error({ type: 'InputError', code: e.info.code, message: e.message });
      } finally {
        progress.done();
      }
      await out.end(stats);
      await live?.end(stats);
    });
}

/**
 * The output buffer: flushed from half of it, 256 KiB, so most lines fit before it must grow.
 * A write cost some 20 µs whatever its size (node's call and this machine's system call):
 * NDJSON of 1 M frames of the mix is 2.7 GB, and its 41 000 writes of 64 KiB were 0.9 s of the
 * run's profile, 256 KiB 0.29 s (10.15–11.99 → 9.48–11.82 s, four runs each, alternating).
 */
const SINK_BYTES = 1 << 19;
/** Where the output buffer is written out: half full. */
const FLUSH_BYTES = SINK_BYTES >>> 1;

/** A streamed input quiet this long (ms) moves the capture clock on by the wall time since its last chunk. */
const IDLE_MS = 250;

/**
 * Where the packets go, as they come. Every format is written as bytes into one buffer (no
 * string per packet: a capture of millions of packets is mostly tree text or JSON written by
 * code compiled from the layouts) and handed to stdout in blocks of about 64 KiB (one write
 * per packet would cost more than the dissection). On a terminal, and from a live capture,
 * the buffer is also handed over once each batch of packets is written (when the caller next
 * waits), so a person watching sees packets as they come. `full` says stdout is holding more
 * than its buffer (a pipe's reader is behind): the caller waits for 'drain', so memory stays
 * flat whatever reads the output.
 */
class Output {
  #first = true;
  #errors: object[] = [];
  readonly #sink = new ByteSink(SINK_BYTES);
  get sink(): ByteSink {
    return this.#sink;
  }
  /** On a terminal, or reading a pipe or a live capture: a flush is queued for when the batch being written is done. */
  #watched: boolean;
  #queued = false;
  full = false;
  readonly format: 'text' | 'json' | 'ndjson' | 'html';
  /** The page of -F html. */
  html: HtmlWriter | undefined;
  /** Text as summary lines (else the tree). */
  readonly #summary: boolean;
  /** -T fields: each packet's line. */
  #fields: FieldsLine | undefined;
  /** The dissection's stats, for the time of its first frame (summary lines count from it). */
  stats: DissectStats | undefined;
  constructor(
    view: View,
    readonly render: RenderOptions,
    readonly tap: StatsTap,
    readonly quiet: boolean,
    /** -l: flushed after each packet. */
    readonly lineBuffered = false,
    /** The file read (not stdin, not a live capture): what names it in a line about the input on stderr. */
    readonly file?: string,
    /** -P with the tree (-V): each packet's summary line too. */
    readonly summaryToo = false,
    /** -t: the summary lines' time column. */
    readonly timeFormat: TimeFormat = 'r',
  ) {
    this.#watched = !!process.stdout.isTTY;
    this.#summaryRender = { ...render, hex: false };
    this.format = view === 'summary' || view === 'tree' || view === 'fields' ? 'text' : view;
    this.#summary = view === 'summary';
    if (this.format === 'json') this.#text('{\n"packets": [\n');
  }

  /** -T fields: packets as lines of the named fields (checked when -e was parsed); -E header=y writes the names first. */
  fieldsLine(fields: FieldsLine, header: boolean): void {
    this.#fields = fields;
    if (header && !this.quiet) this.#text(`${fields.header()}\n`);
  }

  /** The input comes as it is made (a pipe, -i): what is written is handed over after each batch. */
  watch(): void {
    this.#watched = true;
  }

  /** -w FILE (not live): where the packets shown are written again. */
  kept: KeptCapture | undefined;

  packet(p: DissectedRecord): void {
    if (this.tap.on) this.tap.add(p, this.stats && captureStart(this.stats));
    if (this.kept && p !== BLANK) this.kept.write(p);
    if (this.quiet) return;
    // Frames without a query message are listed by text only (JSON keeps its shape): here for -z io,stat's counts.
    if (isFrameRecord(p) && this.format !== 'text') return;
    if (this.html) {
      // Frame records are listed by text output only (allFrames is off for the rest).
      if (!isFrameRecord(p)) this.html.packet(p, this.stats && captureStart(this.stats), this.tap.passed);
    } else if (this.#fields) {
      if (p === BLANK) {
        this.#sink.raw(this.#fields.blank);
        this.#sink.ascii('\n');
      } else this.#fields.write(p, this.#sink, this.stats && captureStart(this.stats));
    } else if (this.#summary) {
      this.#summaryLine(p);
    } else if (this.format === 'text') {
      if (!this.#first) this.#sink.ascii('\n');
      // -P -V: the summary line before each tree, as tshark writes both (with -x, the hex pane once, after the tree).
      if (this.summaryToo) this.#summaryLine(p, this.#summaryRender);
      writePacketText(p, this.#sink, this.render, this.stats && captureStart(this.stats));
    } else {
      if (this.format === 'json' && !this.#first) this.#sink.ascii(',\n');
      writePacketLine(p as PacketRecord, this.#sink, this.render);
      if (this.format === 'ndjson') this.#sink.ascii('\n');
    }
    if (this.#sink.at >= FLUSH_BYTES || this.lineBuffered) this.#flush();
    else if (this.#watched && !this.#queued) {
      // Runs once the caller's synchronous loop over the batch ends (at its next await).
      this.#queued = true;
      queueMicrotask(() => {
        this.#queued = false;
        this.#flush();
      });
    }
    this.#first = false;
  }

  /** The time of the packet whose summary line was written last (`-t dd`); null before the first. */
  #shownBefore: Timestamp | null = null;

  /** -P -V's summary lines: the tree after each has the hex pane. */
  readonly #summaryRender: RenderOptions;

  #summaryLine(p: DissectedRecord, render = this.render): void {
    const time = this.timeFormat === 'r' ? undefined : { format: this.timeFormat, shownBefore: this.#shownBefore };
    writePacketSummary(p, this.#sink, this.stats && captureStart(this.stats), render, time);
    if ('timestamp' in p && p.timestamp) this.#shownBefore = p.timestamp;
  }

  /** A warning about the input, on stderr (after the packets before it), naming the file read. */
  warn(message: string): void {
    if (this.format === 'text' || this.format === 'html') this.#flush();
    process.stderr.write(`gamequery: ${escapeControls(this.#where() + message)}\n`);
  }

  /** `FILE: ` for a line about the file read; nothing for stdin or a live capture. */
  #where(): string {
    return this.file === undefined ? '' : `${this.file}: `;
  }

  error(e: { readonly type: string; readonly message: string } & Record<string, unknown>): void {
    this.#errors.push(e);
    // A damaged capture (cut short, a bad block, damaged gzip) exits 2, as tshark's bad file does; a hex dump's unreadable bytes 1.
    const code = e.type === 'CaptureError' || e.type === 'InputError' ? EXIT.badCapture : EXIT.damaged;
    if (Number(process.exitCode ?? 0) < code) process.exitCode = code;
    if (this.format === 'text' || this.format === 'html') {
      // After the packets before it, as when text went out a packet at a time.
      this.#flush();
      // Where, as tshark says it (an error about reading carries its file already; one of the bytes read does not).
      const where = e.type === 'CaptureError' || e.type === 'HexDumpError' ? this.#where() : '';
      process.stderr.write(`gamequery: ${escapeControls(where + e.message)}\n`);
    }
    if (this.format === 'ndjson') this.#text(JSON.stringify({ error: e }) + '\n');
  }

  /**
   * Writes what comes after the packets (the statistics, the page's end), waiting for a pipe
   * that is full: a scan's report is 100 MB of JSON, which a loop that never waits would queue
   * whole in the stream while the reader takes it.
   */
  async end(stats: DissectStats): Promise<void> {
    for (const piece of this.#endPieces(stats)) {
      this.#text(piece);
      if (this.full) await this.drained();
    }
    this.#flush();
    this.kept?.close();
    for (const w of this.tap.warnings()) process.stderr.write(`gamequery: ${w}\n`);
    // Said in each such packet too; counted here so that it is not missed in a long output.
    if (stats.incomplete)
      process.stderr.write(
        `gamequery: ${stats.incomplete} packets written before their exchange settled (one pass over its memory ceiling): their links may be missing\n`,
      );
  }

  /** What {@link end} writes, in pieces. */
  *#endPieces(stats: DissectStats): Generator<string> {
    // The servers' reports a row at a time, each made as it is read (JSON writes each; the page's table keeps what it
    // shows, as the text's does, which makes its own).
    const rows = this.format === 'text' ? undefined : this.tap.reportRows();
    const sources = this.tap.sourcesReport();
    const io = this.tap.ioReport();
    const phs = this.tap.phsReport();
    // For JSON and the page, each table's rows made as they are written (text writes its lines so): a flood's has millions.
    const conversations = this.format === 'text' ? [] : this.tap.conversationRows();
    const convStats = conversations.length ? conversations.map(({ count: _, ...table }) => table) : undefined;
    const expertStats = this.tap.expertReport();
    if (this.html) {
      const pieces = this.html.endPieces(
        this.#errors.map((e) => (e as { message: string }).message),
        {
          ...(rows ? { servers: rows } : {}),
          ...(sources ? { sources } : {}),
          ...(io ? { io, ioFilter: this.tap.ioFilter } : {}),
          ...(phs ? { phs } : {}),
          ...(conversations.length ? { conversations } : {}),
          ...(expertStats ? { expert: expertStats } : {}),
        },
      );
      yield* pieces;
    } else if (this.format === 'json') {
      yield `\n],\n"errors": ${JSON.stringify(this.#errors)},\n"stats": ${JSON.stringify(stats)}`;
      for (const [name, report] of [
        ['serverStats', rows],
        ['sourceStats', sources],
        ['ioStats', io],
        ['phsStats', phs],
        ['convStats', convStats],
        ['expertStats', expertStats],
      ] as const) {
        if (!report) continue;
        yield `,\n"${name}": `;
        // The conversation tables a row at a time: the list, each table, its rows.
        yield* jsonPieces(report, name === 'convStats' ? 3 : 2);
      }
      yield '\n}\n';
    } else if (this.format === 'ndjson') {
      if (rows) {
        yield '{"serverStats":';
        yield* jsonPieces(rows);
        yield '}\n';
      }
      if (sources) yield `${JSON.stringify({ sourceStats: sources })}\n`;
      if (io) yield `${JSON.stringify({ ioStats: io })}\n`;
      if (phs) yield `${JSON.stringify({ phsStats: phs })}\n`;
      if (convStats) {
        yield '{"convStats":';
        yield* jsonPieces(convStats, 3);
        yield '}\n';
      }
      if (expertStats) yield `${JSON.stringify({ expertStats })}\n`;
    } else if (this.tap.servers || sources || io || phs || this.tap.conversations.length || expertStats) {
      yield* this.tap.text(this.quiet);
    }
  }

  /** Text written at once (live statistics rows, between reads). */
  write(text: string): void {
    this.#sink.raw(text);
    this.#flush();
  }

  #text(text: string): void {
    this.#sink.raw(text);
    if (this.#sink.at >= FLUSH_BYTES) this.#flush();
  }

  #flush(): void {
    if (this.#sink.at === 0) return;
    // The stream may hold on to what it is given until it is written: it gets the buffer, and
    // the sink another (not zero-filled: only what is written is read). Measured faster than
    // copying a block out. Written at once (a file, /dev/null, a pipe with room), nothing holds
    // it and the sink takes it back: a new buffer a block was gigabytes for the collector.
    const full = this.#sink.buf;
    const block = full.subarray(0, this.#sink.at);
    this.#sink.buf = this.#spare ?? Buffer.allocUnsafe(SINK_BYTES);
    this.#spare = undefined;
    this.#sink.at = 0;
    if (!process.stdout.write(block)) this.full = true;
    else if (process.stdout.writableLength === 0 && full.length === SINK_BYTES) this.#spare = full;
  }

  /** An output buffer written and free again. */
  #spare: Uint8Array | undefined;

  /** Resolves once stdout has written what it holds. */
  async drained(): Promise<void> {
    if (this.full) await once(process.stdout, 'drain');
    this.full = false;
  }
}

/** A progress line on stderr, only on a TTY, after the first second, and not for a live capture (its packets show it). */
class Progress {
  constructor(
    readonly wanted = true,
    /** Whether the query packets are counted (not where no message is read). */
    readonly counted = true,
  ) {}
  readonly #start = Date.now();
  #shown = false;
  #next = 0;
  tick(s: DissectStats): void {
    // Called per chunk of input (64 KiB): the clock is cheap at that rate; the line is redrawn four times a second.
    if (!this.wanted || !process.stderr.isTTY) return;
    const now = Date.now();
    const elapsed = now - this.#start;
    // Nothing counted yet (the first pass reads ahead before the first packet is out): no line of zeros.
    if (elapsed < 1000 || now < this.#next || s.frames === 0) return;
    this.#next = now + 250;
    this.#shown = true;
    const game = this.counted ? `${s.game} query packets, ` : '';
    process.stderr.write(`\r${s.frames} frames, ${game}${Math.round(s.frames / (elapsed / 1000))} frames/s`);
  }
  done(): void {
    if (this.#shown) process.stderr.write('\n');
  }
}

/**
 * `JSON.stringify(value)` in pieces, for the output to take as it fills: an object's members
 * and an array's items one by one, two levels down (a report's servers), each item whole. A
 * scan's report of 150 000 servers is 107 MB of JSON; made into one string, then into bytes, it
 * was 300 MB more at the end of the run. The same text: members whose value JSON leaves out
 * (undefined, a function) are left out, such array items written `null`.
 */
export function* jsonPieces(value: unknown, levels = 2): Generator<string> {
  if (levels === 0 || value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  // An array, or rows made as they are read (a generator): JSON's array of them.
  if (Array.isArray(value) || Symbol.iterator in value) {
    yield '[';
    let i = 0;
    for (const item of value as Iterable<unknown>) {
      if (i++) yield ',';
      yield* jsonPieces(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item, levels - 1);
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(k)}:`;
    first = false;
    yield* jsonPieces(v, levels - 1);
  }
  yield '}';
}

/** Bytes of the pcapng file held before they are written (-w). */
const KEPT_BYTES = 1 << 18;

/**
 * `-w FILE` from a file or a pipe: each packet written (shown, or with -q that would have been)
 * goes into a pcapng file, as tshark -r IN -Y FILTER -w OUT writes them: its frame's bytes, length
 * on the wire and time (a reassembled datagram's last fragment, as tshark's one pass writes it),
 * handed to the file in blocks of about 256 KiB. A hex dump's bare payload has no frame to write:
 * counted, and said at the end.
 */
class KeptCapture {
  readonly #file: FileOut;
  readonly #writer: PcapngWriter;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  /** Packets that have no frame (a hex dump's payload). */
  #frameless = 0;

  constructor(name: string) {
    this.#file = new FileOut(name, 'the dissection');
    this.#writer = new PcapngWriter((bytes) => {
      this.#held.push(bytes);
      this.#heldBytes += bytes.length;
      if (this.#heldBytes >= KEPT_BYTES) this.#flush();
    });
  }

  write(p: DissectedRecord): void {
    // A record's frame: the one that completed it, for a reassembled datagram (a frame without a query message: its own bytes).
    const r = p as { readonly linkType?: number; readonly frameData?: Uint8Array; readonly frameBytes?: Uint8Array };
    const linkType = r.linkType;
    const data = isFrameRecord(p) ? r.frameBytes : r.frameData;
    if (linkType === undefined || !data) {
      this.#frameless++;
      return;
    }
    const wire = 'frameLength' in p ? p.frameLength : undefined;
    const timestamp = 'timestamp' in p ? (p.timestamp as Timestamp | null) : null;
    this.#writer.frame({ linkType, data, originalLength: wire ?? data.length, timestamp });
  }

  close(): void {
    this.#flush();
    this.#file.close();
    if (this.#frameless)
      process.stderr.write(
        `gamequery: -w ${escapeControls(this.#file.name)}: ${this.#frameless} packets not written: a hex dump of a UDP payload has no frame to write\n`,
      );
  }

  /** The blocks held, as one write (a write a block was a system call a frame). */
  #flush(): void {
    if (this.#held.length) this.#file.write(Buffer.concat(this.#held, this.#heldBytes));
    this.#held = [];
    this.#heldBytes = 0;
  }
}
