/**
 * One self-contained HTML page of a dissection (`-F html`): the packet list, a packet's
 * tree and its hex pane, linked both ways (a field selects its bytes, a byte its field),
 * with the pairing links as links. No network: the style, the script and the packets are
 * all in the page, which works from `file://`. Written as it goes: a head, one JSON line
 * per packet, a tail; past `limit` packets only counted.
 */
import type { FieldNode } from '@gamequery/codec';
import type { ByteSink } from '@gamequery/codec/internal';
import type { Timestamp } from '../capture/timestamp.ts';
import type { PacketRecord } from '../packet-record.ts';
import { generatedNodes } from './packet.ts';
import { pairingNotes, summaryColumns } from './summary.ts';
import { lineOf } from './text.ts';
import { expertItemLine, expertItemsOf } from '../stats/expert.ts';
import { recordPhsPath } from '../stats/phs.ts';
import { PAGE_CSP, PAGE_SCRIPT, PAGE_STYLE, escapeHtml } from './html-page.ts';
import { chartsHtmlPieces, type chartsHtml } from './charts.ts';

/** Options of {@link HtmlWriter}. */
export interface HtmlOptions {
  readonly title?: string;
  readonly showSecrets?: boolean;
  /** Packets embedded at most (default 10 000); the rest are counted and the page says so. */
  readonly limit?: number;
}

/** A tree node as the page gets it: [text, offset in the shown bytes, length, children, abbreviation, frame it links to]. */
type PageNode = [string, number, number, PageNode[], string, number?];

/** JSON inside a script element: nothing in it may close the element or open a comment. */
const scriptJson = (v: unknown): string =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * Writes one self-contained HTML page of a dissection into a {@link ByteSink}, packet by packet (see the
 * module comment).
 */
export class HtmlWriter {
  readonly #limit: number;
  readonly #showSecrets: boolean;
  #shown = 0;
  #omitted = 0;

  constructor(
    readonly sink: ByteSink,
    readonly options: HtmlOptions = {},
  ) {
    this.#limit = options.limit ?? 10_000;
    this.#showSecrets = !!options.showSecrets;
    const title = escapeHtml(options.title ?? 'gamequery');
    sink.raw(
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">` +
        `<meta name="color-scheme" content="light dark"><title>${title}</title><style>${PAGE_STYLE}</style></head>\n` +
        `<body><header><h1>${title}</h1><p id="notice" role="status"></p><p id="filter" role="status" hidden><span></span> <button type="button" id="clear">Show all</button></p></header>\n` +
        `<main><section id="list-pane" aria-label="Packets"><table id="list"><thead><tr><th>No.</th><th>Time</th><th>Source</th><th>Destination</th><th>Protocol</th><th>Length</th><th>Info</th></tr></thead><tbody></tbody></table></section>\n` +
        `<section id="tree-pane" aria-label="Packet details"><ul id="tree" role="tree"></ul><ul id="notes"></ul></section>\n` +
        `<section id="hex-pane" aria-label="Packet bytes"><pre id="hex"></pre></section></main>\n` +
        `<script type="application/json" id="packets">[\n`,
    );
  }

  /**
   * Embeds a packet (or counts it past the limit). `start`: the capture's first frame's time; `within`: the
   * filters of the statistics tables of their own that it passed (a click on such a table's row shows the packets it counted).
   */
  packet(p: PacketRecord, start?: Timestamp | null, within: readonly string[] = []): void {
    if (this.#shown >= this.#limit) {
      this.#omitted++;
      return;
    }
    const c = summaryColumns(p, start);
    const bytes = p.frameBytes ?? p.payload;
    const shift = p.frameBytes ? p.payloadOffset : 0;
    const hidden: [number, number][] = [];
    const node = (n: FieldNode): PageNode => {
      if (n.secret && !this.#showSecrets) hidden.push([n.offset + shift, n.length]);
      const link = n.generated && (n.abbrev.endsWith('.response_in') || n.abbrev.endsWith('.response_to')) ? Number(n.value) : undefined;
      const out: PageNode = [
        lineOf(n, { showSecrets: this.#showSecrets }),
        n.generated ? -1 : n.offset + shift,
        n.generated ? 0 : n.length,
        (n.children ?? []).map(node),
        n.abbrev,
      ];
      if (link !== undefined) out.push(link);
      return out;
    };
    const tree = [...p.fields, ...generatedNodes(p)].map(node);
    let hex = '';
    for (let i = 0; i < bytes.length; i++) hex += bytes[i]!.toString(16).padStart(2, '0');
    // A secret's bytes are not in the page at all unless shown: '**' in their place.
    for (const [at, length] of hidden)
      hex = hex.slice(0, at * 2) + '**'.repeat(Math.max(0, Math.min(length, bytes.length - at))) + hex.slice((at + length) * 2);
    const notes: string[] = [];
    if (p.unanswered) notes.push(`No response: ${p.unanswered}`);
    if (p.duplicateOf !== undefined) notes.push(`Duplicate response to frame ${p.duplicateOf}`);
    if (p.unmatched) notes.push(`Unmatched response: ${p.unmatched}`);
    if (p.ambiguous) notes.push(`Ambiguous: ${p.ambiguous}`);
    if (p.incomplete) notes.push(`Pairing incomplete: ${p.incomplete}`);
    // As the text tree writes them: severity and group from the code's declared expert item; the malformed item Error/Malformed.
    for (const i of expertItemsOf(p)) notes.push(expertItemLine(i));
    const links = { r: p.responseIn, q: p.requestIn, u: p.duplicateOf };
    const entry = {
      n: c.frame,
      t: c.time,
      s: c.source,
      d: c.destination,
      p: c.protocol,
      l: c.length,
      i: p.summary,
      k: pairingNotes(p).trim(),
      x: hex,
      o: shift,
      f: tree,
      w: notes,
      h: recordPhsPath(p),
      ...(within.length ? { z: [...within] } : {}),
      ...links,
    };
    this.sink.raw(`${this.#shown ? ',\n' : ''}${scriptJson(entry)}`);
    this.#shown++;
  }

  /**
   * Closes the page; `errors` (a damaged capture) are shown above the list; `stats`, the
   * statistics drawn as charts (render/charts.ts) after the panes, each chart filtering the list.
   */
  end(errors: readonly string[] = [], stats: Parameters<typeof chartsHtml>[0] = {}): void {
    for (const piece of this.endPieces(errors, stats)) this.sink.raw(piece);
  }

  /** What {@link end} writes, in pieces for the caller to write and hand on as they come (a scan's tables are tens of megabytes). */
  *endPieces(errors: readonly string[] = [], stats: Parameters<typeof chartsHtml>[0] = {}): Generator<string> {
    const info = { shown: this.#shown, omitted: this.#omitted, limit: this.#limit, errors };
    yield `\n]</script>\n<script type="application/json" id="info">${scriptJson(info)}</script>\n`;
    yield* chartsHtmlPieces(stats, this.#shown + this.#omitted > 0);
    yield `<script>${PAGE_SCRIPT}</script>\n</body></html>\n`;
  }
}
