/**
 * `gamequery dissect -F html` in a real browser: headless Chromium (Debian's
 * chromium-headless-shell, which .ci/run installs) driven by playwright-core opens the page
 * from file:// with the network cut off, and a field, a byte, a link and the keys are
 * tried as a person would. A screenshot of each scheme is kept (GAMEQUERY_ARTIFACTS, or
 * the temporary folder) for a look.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { ByteSink } from '@gamequery/codec/internal';
import { HtmlWriter, type PacketRecord } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { udpFrame, writePcap } from '../../dissect/test/capture/helpers.ts';
import { gamequery, root, runSync as run } from './cli.ts';

/**
 * What the page functions below use of the browser's globals: they run in Chromium.
 * (The tests are type-checked without the DOM library, which would hold the sources they import to the DOM's types too.)
 */
interface HTMLElement {
  readonly id: string;
  readonly dataset: Record<string, string | undefined>;
}
declare const document: { readonly activeElement: HTMLElement | null; readonly body: HTMLElement };
declare function getComputedStyle(element: HTMLElement): { readonly backgroundColor: string };

const candidates = [process.env.GAMEQUERY_CHROMIUM, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].filter(
  (p): p is string => !!p,
);
const executablePath = candidates.find((p) => existsSync(p));
const veth = `${root}packages/dissect/test/fixtures/captures/veth-frag.pcap`;

/**
 * A display filter as the page shows it after `-Y`, to paste into a shell: in double quotes, or in single
 * quotes (a single quote in it as '\'') where it holds what a shell reads inside double quotes.
 */
const shellQuoted = (f: string): string => (/["$\\`!]/.test(f) ? `'${f.replace(/'/g, "'\\''")}'` : `"${f}"`);
const artifacts = process.env.GAMEQUERY_ARTIFACTS ?? join(tmpdir(), 'gamequery-artifacts');

let dir: string;
let browser: Browser;
let page: Page;
const requests: string[] = [];
const complaints: string[] = [];

beforeAll(async () => {
  // Never skipped: without a browser the test fails and says what to install.
  if (!executablePath)
    throw new Error(`no Chromium at ${candidates.join(', ')}: apt-get install chromium-headless-shell (or set GAMEQUERY_CHROMIUM)`);
  dir = mkdtempSync(join(tmpdir(), 'gamequery-html-'));
  const r = run('dissect', veth, '-F', 'html');
  expect([r.status, r.stderr]).toEqual([0, '']);
  writeFileSync(join(dir, 'veth.html'), r.stdout);
  browser = await chromium.launch({
    executablePath,
    timeout: 20_000,
    args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // What the console says is wrong (a script error, a refusal of the page's own Content-Security-Policy).
  page.on('console', (m) => {
    if (m.type() === 'error') complaints.push(m.text());
  });
  page.on('pageerror', (e) => complaints.push(String(e)));
  // Anything but the page itself would be the network: recorded, refused.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file://')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(`file://${join(dir, 'veth.html')}`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const highlighted = (): Promise<string> =>
  page.$$eval('#hex span.hl', (spans) =>
    spans
      .filter((s) => /^[0-9a-f*]{2}$/.test(s.textContent!))
      .map((s) => s.textContent)
      .join(''),
  );
const selectedField = (): Promise<string | null> => page.$eval('#tree li.sel', (li) => li.getAttribute('title')).catch(() => null);
const selectedFrame = (): Promise<string | null> => page.$eval('#list tr[aria-selected="true"]', (tr) => tr.id);

describe('the HTML view in Chromium', () => {
  it('lists every packet with its summary and opens on the first; no network is asked for', async () => {
    expect(await page.$$eval('#list tbody tr', (rows) => rows.length)).toBe(20);
    expect(await page.$eval('#f6', (tr) => tr.textContent)).toContain('SA:MP info response: "gamequery fixture server" 100/200');
    expect(await selectedFrame()).toBe('f5');
    expect(await page.textContent('#notice')).toBe('20 packets.');
    expect(requests).toEqual([]);
  });

  it('selecting a field lights up its bytes, and a byte selects the innermost field that covers it', async () => {
    await page.click('#f6');
    await page.click('#tree li[title="samp.info.hostname"] > span');
    // "gamequery fixture server", 24 bytes at offset 20 of the payload (42 into the frame).
    expect(await highlighted()).toBe(Buffer.from('gamequery fixture server').toString('hex'));
    const first = await page.$$eval('#hex span.hl', (s) => Number((s[0] as HTMLElement).dataset.i));
    expect(first).toBe(42 + 20);
    await page.click('#hex span[data-i="60"]'); // a byte of the player count... of hostname.len at 16–19 → frame offset 58–61
    expect(await selectedField()).toBe('samp.info.hostname.len');
    expect(await highlighted()).toBe('18000000');
    await page.click('#hex span[data-i="12"]'); // the Ethernet type: no field of ours covers it
    expect(await selectedField()).toBeNull();
  });

  it('follows Response In and Request In links, and the keys move through packets and fields', async () => {
    await page.click('#f5');
    await page.click('#tree a[data-frame="6"]');
    expect(await selectedFrame()).toBe('f6');
    await page.click('#tree a[data-frame="5"]');
    expect(await selectedFrame()).toBe('f5');
    await page.focus('#f5');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await selectedFrame()).toBe('f7');
    await page.keyboard.press('End');
    expect(await selectedFrame()).toBe('f30');
    await page.keyboard.press('ArrowRight');
    expect(await selectedField()).toBe('mcquery.type');
    await page.keyboard.press('ArrowDown');
    expect(await selectedField()).toBe('mcquery.session_id');
    expect(await highlighted()).toBe('00000001');
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f30');
  });

  it('reads in the light and the dark scheme', async () => {
    mkdirSync(artifacts, { recursive: true });
    const colours: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      colours.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      writeFileSync(join(artifacts, `html-view-${scheme}.png`), await page.screenshot());
    }
    expect(colours).toEqual(['rgb(255, 255, 255)', 'rgb(22, 24, 28)']);
  });
});

describe('what the page holds', () => {
  it('keeps an RCON password out of the page (text and bytes) unless --show-secrets', () => {
    const header = { serverIp: '127.0.0.1', serverPort: 7777 };
    const file = join(dir, 'rcon.pcap');
    writeFileSync(
      file,
      writePcap(
        [
          {
            seconds: 1_700_000_000,
            ticks: 0,
            data: udpFrame(samp.rconRequest.encode({ ...header, password: 'Hunter2xyz', command: 'players' }), 50000, 7777),
          },
          {
            seconds: 1_700_000_000,
            ticks: 1000,
            data: udpFrame(samp.rconResponse.encode({ ...header, output: 'no players' }), 7777, 50000),
          },
        ],
        { linkType: 1 },
      ),
    );
    const hexOf = (s: string) => Buffer.from(s).toString('hex');
    const masked = run('dissect', file, '-F', 'html').stdout;
    expect(masked).toContain('players');
    expect(masked).toContain('********');
    expect([masked.includes('Hunter2xyz'), masked.includes(hexOf('Hunter2xyz'))]).toEqual([false, false]);
    expect(masked).toContain('**'.repeat(10));
    const shown = run('dissect', file, '-F', 'html', '--show-secrets').stdout;
    expect([shown.includes('Hunter2xyz'), shown.includes(hexOf('Hunter2xyz'))]).toEqual([true, true]);
  });

  it('past its limit embeds no more packets and says how many it left out', async () => {
    const packets: PacketRecord[] = [];
    for await (const b of dissectCaptureFile(veth)) packets.push(...b.packets);
    const sink = new ByteSink();
    const writer = new HtmlWriter(sink, { title: 'limited', limit: 3 });
    for (const p of packets) writer.packet(p);
    writer.end(['a damaged capture: example']);
    const file = join(dir, 'limited.html');
    writeFileSync(file, sink.buf.subarray(0, sink.at));
    const limited = await browser.newPage();
    await limited.goto(`file://${file}`);
    expect(await limited.$$eval('#list tbody tr', (rows) => rows.length)).toBe(3);
    expect(await limited.textContent('#notice')).toBe(
      'The first 3 packets of 20 (17 more not in this page; choose fewer with -Y or -c). a damaged capture: example',
    );
    await limited.close();
  });
});

describe('the statistics of the HTML view in Chromium', () => {
  const visible = (): Promise<string[]> => page.$$eval('#list tbody tr:not(.out)', (rows) => rows.map((r) => r.id.slice(1)));
  /** The query packets `gamequery dissect -Y` passes for a chart's display filter. */
  const passed = async (display: string): Promise<string[]> =>
    (await gamequery(['dissect', veth, '-Y', `(${display}) && (samp || mcquery)`, '-T', 'fields', '-e', 'frame.number'])).stdout
      .split('\n')
      .filter(Boolean);

  it('draws the rate over time per server, the round trips and the top sources, from the page alone', async () => {
    await page.goto(`file://${join(dir, 'veth.html')}`);
    const kinds = await page.$$eval('#stats svg.chart', (svgs) => svgs.map((s) => s.getAttribute('class')));
    // In total, and the four servers; the histogram; the sources by requests and by the reply bytes sent them.
    expect(kinds).toEqual(['chart io', 'chart io', 'chart io', 'chart io', 'chart io', 'chart rtt', 'chart sources', 'chart sources']);
    // Bars that are there: drawn with a height, and laid out by the browser.
    const bars = await page.$$eval(
      '#stats rect.req',
      (rs) => rs.filter((r) => Number(r.getAttribute('height')) > 0 && r.getBoundingClientRect().height > 0).length,
    );
    expect(bars).toBeGreaterThan(10);
    expect(requests).toEqual([]);
    // Under its own strict policy (default-src 'none', its script and style by hash) nothing was refused.
    expect(await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.getAttribute('content'))).toMatch(
      /^default-src 'none'; script-src 'sha256-/,
    );
    expect(complaints).toEqual([]);
    await page.screenshot({ path: join(artifacts, 'veth-stats.png'), fullPage: true });
  });

  it('a click on an interval, a histogram bin or a source (by requests or reply bytes) shows the packets -Y with its filter passes', async () => {
    await page.goto(`file://${join(dir, 'veth.html')}`);
    const targets = await page.$$eval('#stats [data-filter]', (ts) =>
      ts.map((t, i) => ({ i, display: t.getAttribute('data-display')!, title: t.querySelector('title')?.textContent ?? '' })),
    );
    // Those that count something: an interval with requests or replies, a bin with replies, every source.
    const counting = targets.filter((t) => !/: 0 requests, 0 replies|: 0 replies$/.test(t.title));
    expect(counting.length).toBeGreaterThanOrEqual(10);
    // What dissect -Y passes for each, a few commands at a time (some thirty in all).
    const expected: string[][] = [];
    for (let i = 0; i < counting.length; i += 4)
      expected.push(...(await Promise.all(counting.slice(i, i + 4).map((t) => passed(t.display)))));
    for (const [k, t] of counting.entries()) {
      await page.locator('#stats [data-filter]').nth(t.i).click({ force: true });
      const shown = await visible();
      expect(shown, t.display).toEqual(expected[k]);
      expect(shown.length, t.title).toBeGreaterThan(0);
      // What the title counts is what is shown: an interval's requests and replies.
      const m = /: (\d+) requests, (\d+) replies/.exec(t.title);
      if (m) expect(shown.length, t.title).toBe(Number(m[1]) + Number(m[2]));
      expect(await page.textContent('#filter span')).toBe(`${shown.length} of 20 packets: -Y ${shellQuoted(t.display)}`);
    }
    await page.click('#clear');
    expect((await visible()).length).toBe(20);
  }, 120_000);

  it('-z io,stat with a column filter: an interval shows the packets it counted, those the filter passed, and its display filter says so', async () => {
    await withPage(veth, ['-z', 'io,stat,0.05,mcquery'], async (tab, listed) => {
      const targets = tab.locator('#stats svg.io [data-filter]');
      const all = await targets.evaluateAll((ts) =>
        ts.map((t) => ({ display: t.getAttribute('data-display')!, title: t.querySelector('title')!.textContent! })),
      );
      // The Minecraft exchanges (two, over IPv4 and IPv6), in the total chart and the two Minecraft servers' own.
      const counting = all.map((t, i) => ({ ...t, i })).filter((t) => !/: 0 requests, 0 replies/.test(t.title));
      expect(counting.length).toBeGreaterThanOrEqual(3);
      for (const t of counting) {
        expect(t.display.startsWith('(mcquery) && (')).toBe(true);
        const passed = new Set(
          run('dissect', veth, '-Y', t.display, '-T', 'fields', '-e', 'frame.number').stdout.split('\n').filter(Boolean),
        );
        await targets.nth(t.i).click({ force: true });
        const shown = await tab.$$eval('#list tbody tr:not(.out)', (trs) => trs.map((tr) => tr.id.slice(1)));
        expect(shown, t.display).toEqual(listed.filter((n) => passed.has(n)));
        const m = /: (\d+) requests, (\d+) replies/.exec(t.title)!;
        expect(shown.length, t.title).toBe(Number(m[1]) + Number(m[2]));
      }
    });
  });

  it('gamequery stats -F html: the statistics alone, the panes hidden, a click naming the filter', async () => {
    const r = run('stats', veth, '-F', 'html');
    expect([r.status, r.stderr]).toEqual([0, '']);
    const file = join(dir, 'stats.html');
    writeFileSync(file, r.stdout);
    const alone = await browser.newPage();
    await alone.goto(`file://${file}`);
    expect(await alone.isVisible('main')).toBe(false);
    expect(await alone.$$eval('#stats svg.chart', (s) => s.length)).toBe(8);
    await alone.locator('#stats svg.sources g[data-filter]').first().click();
    expect(await alone.textContent('#filter span')).toMatch(/^0 of 0 packets: -Y "(ipv6|ip)\.src == /);
    expect(await alone.textContent('#stats .hint')).toMatch(/^This page holds no packets: a click/);
    // The servers as a table, each row as the JSON report has it: its counts and what it sent back per byte it got.
    const json = JSON.parse(run('stats', veth, '-F', 'json').stdout) as {
      serverStats: {
        servers: { server: { ip: string; port: number }; answered: number; amplification: { payload: number; wire: number } }[];
      };
    };
    const rows = await alone.$$eval('table.stat tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(rows.map((r) => [r[0], r[3], r[10], r[11]])).toEqual(
      json.serverStats.servers.map((s) => [
        s.server.ip.includes(':') ? `[${s.server.ip}]:${s.server.port}` : `${s.server.ip}:${s.server.port}`,
        String(s.answered),
        s.amplification.payload.toFixed(3),
        s.amplification.wire.toFixed(3),
      ]),
    );
    await alone.locator('table.stat tbody tr').first().click();
    expect(await alone.textContent('#filter span')).toContain(`udp.dstport == ${json.serverStats.servers[0]!.server.port}`);
    await alone.close();
  });

  /** A row of a page's statistics tables: its table's caption, its display filter, its cells, and its place among every table's rows. */
  interface StatRow {
    readonly caption: string;
    readonly display: string;
    readonly cells: readonly string[];
    readonly i: number;
  }

  /** `gamequery dissect FILE ARGS… -F html` in a tab of its own, closed after `use`, which gets the tab and the frames of its packet list. */
  async function withPage(
    file: string,
    args: readonly string[],
    use: (tab: Page, listed: readonly string[]) => Promise<void>,
  ): Promise<void> {
    const r = run('dissect', file, ...args, '-F', 'html');
    expect([r.status, r.stderr]).toEqual([0, '']);
    const html = join(dir, `page-${args.join('').replace(/\W/g, '')}.html`);
    writeFileSync(html, r.stdout);
    const tab = await browser.newPage();
    try {
      await tab.goto(`file://${html}`);
      await use(tab, await tab.$$eval('#list tbody tr', (trs) => trs.map((tr) => tr.id.slice(1))));
    } finally {
      await tab.close();
    }
  }

  /**
   * {@link withPage} for its tables: the frames of its packet list, the rows of its tables whose caption `caption`
   * matches, and `click`, which clicks a row and checks that the list then shows those of its packets that `passed`
   * holds (the frames `-Y` passes with the row's filter) and names the filter; it gives the frames shown.
   */
  async function withTables(
    file: string,
    args: readonly string[],
    caption: RegExp,
    use: (page: {
      readonly listed: readonly string[];
      readonly rows: readonly StatRow[];
      readonly click: (row: StatRow, passed: ReadonlySet<string>) => Promise<string[]>;
    }) => Promise<void>,
  ): Promise<void> {
    await withPage(file, args, async (tab, listed) => {
      const all = await tab.$$eval('table.stat', (ts) =>
        ts.flatMap((t) =>
          [...t.querySelectorAll('tbody tr')].map((tr) => ({
            caption: t.querySelector('caption')!.textContent!,
            display: tr.getAttribute('data-display')!,
            cells: [...tr.querySelectorAll('td')].map((td) => td.textContent!),
          })),
        ),
      );
      const shown = (): Promise<string[]> => tab.$$eval('#list tbody tr:not(.out)', (trs) => trs.map((tr) => tr.id.slice(1)));
      await use({
        listed,
        rows: all.map((row, i) => ({ ...row, i })).filter((row) => caption.test(row.caption)),
        click: async (row, passed) => {
          await tab.locator('table.stat tbody tr').nth(row.i).click();
          const frames = await shown();
          expect(frames, row.display).toEqual(listed.filter((n) => passed.has(n)));
          const line = await tab.textContent('#filter span');
          expect(line).toBe(`${frames.length} of ${listed.length} packets: -Y ${shellQuoted(row.display)}`);
          // What a shell makes of it, pasted: the filter itself.
          expect(spawnSync('sh', ['-c', `printf %s ${line!.replace(/^.*? -Y /, '')}`], { encoding: 'utf8' }).stdout).toBe(row.display);
          return frames;
        },
      });
    });
  }

  it('-z conv and -z endpoints: a row filters to its packets, and its display filter takes the frames it counts', async () => {
    // And two tables of their own filter: a row's display filter and its click then keep to the frames the filter passed.
    const zs = ['conv,ip', 'conv,ipv6', 'conv,udp', 'endpoints,ip', 'endpoints,udp', 'conv,ip,samp', 'endpoints,ip,mcquery'];
    // The tables asked for (the servers' table comes first, as on every page with statistics).
    await withTables(
      veth,
      zs.flatMap((z) => ['-z', z]),
      / (conversations|endpoints)/,
      async ({ rows, click }) => {
        const passedBy = new Map<StatRow, ReadonlySet<string>>();
        // Every row of the five tables: 1 IPv4 conversation, 5 IPv6, 10 UDP; 2 IPv4 endpoints, 14 UDP.
        expect(rows.map((row) => row.caption.replace(/:.*/, ''))).toEqual([
          'IPv4 conversations',
          ...Array<string>(5).fill('IPv6 conversations'),
          ...Array<string>(10).fill('UDP conversations'),
          ...Array<string>(2).fill('IPv4 endpoints'),
          ...Array<string>(14).fill('UDP endpoints'),
          'IPv4 conversations (filter',
          ...Array<string>(2).fill('IPv4 endpoints (filter'),
        ]);
        for (const row of rows) {
          // What -Y passes with the row's filter, every frame: the frames the row counts (A to B and B to A, or the endpoint's).
          const frames = run('dissect', veth, '-Y', row.display, '-T', 'fields', '-e', 'frame.number', '-e', '_ws.col.Info')
            .stdout.split('\n')
            .filter(Boolean)
            .map((l) => l.split('\t'));
          const counted = row.caption.includes('conversations') ? Number(row.cells[2]) + Number(row.cells[4]) : Number(row.cells[1]);
          // tshark's IPv6 table counts a fragmented datagram once, at the fragment that completes it; the filter takes them all.
          const uncounted = row.caption.startsWith('IPv6') ? frames.filter(([, info]) => /^IPv6 fragment \(.* more=y /.test(info!)) : [];
          expect(frames.length - uncounted.length, `${row.caption}: ${row.display}`).toBe(counted);
          // A click shows those of the page's packets (its query messages), and names the filter.
          passedBy.set(row, new Set(frames.map(([n]) => n!)));
          await click(row, passedBy.get(row)!);
        }
        // A conversation of query messages shows its request and reply; an IPv6 one of multicast ICMPv6 none of them.
        const udp = rows.find((row) => row.caption.startsWith('UDP conversations'))!;
        expect((await click(udp, passedBy.get(udp)!)).length).toBe(2);
        // Of the IPv4 conversation's twelve frames, its six of SA:MP; of an IPv4 endpoint's, its four of Minecraft.
        const [ip, samp] = rows.filter((row) => row.caption.startsWith('IPv4 conversations'));
        expect([passedBy.get(ip!)!.size, passedBy.get(samp!)!.size]).toEqual([12, 6]);
        expect(await click(samp!, passedBy.get(samp!)!)).toHaveLength(6);
        const mc = rows.filter((row) => row.caption.startsWith('IPv4 endpoints (filter'));
        expect(mc.map((row) => passedBy.get(row)!.size)).toEqual([4, 4]);
      },
    );
  });

  it('-z expert: a row shows the packets that raised its item, and its display filter passes them', async () => {
    const file = `${root}packages/dissect/test/fixtures/expert/expert-lo.pcap`;
    await withTables(file, ['-z', 'expert'], /^Expert items/, async ({ rows, click }) => {
      // Three warnings of SA:MP (a flag byte, two short lists) and the Minecraft replies whose requests were not seen.
      expect(rows.map((row) => [row.cells[0], row.cells[2], row.cells[4]])).toEqual([
        ['warn', 'SAMP', '1'],
        ['warn', 'SAMP', '1'],
        ['warn', 'SAMP', '1'],
        ['warn', 'MCQUERY', '3'],
      ]);
      for (const row of rows) {
        const passed = run('dissect', file, '-Y', row.display, '-T', 'fields', '-e', 'frame.number').stdout.split('\n').filter(Boolean);
        expect(passed.length, row.display).toBe(Number(row.cells[4]));
        expect((await click(row, new Set(passed))).length).toBe(Number(row.cells[4]));
      }
    });
  });

  it('-z io,phs: a row filters to the packets of its place in the hierarchy, and its display filter takes the frames it counts', async () => {
    await withTables(veth, ['-z', 'io,phs'], /^Protocol hierarchy/, async ({ listed, rows, click }) => {
      expect(rows.map((row) => row.cells[0]!.trim())).toEqual([
        'eth',
        'ipv6',
        'icmpv6',
        'udp',
        'samp',
        'mcquery',
        'data',
        'ip',
        'udp',
        'samp',
        'mcquery',
        'data',
      ]);
      const shownBy = new Map<string, number>();
      for (const row of rows) {
        const passed = run('dissect', veth, '-Y', row.display, '-T', 'fields', '-e', 'frame.number').stdout.split('\n').filter(Boolean);
        expect(passed.length, row.display).toBe(Number(row.cells[2]));
        shownBy.set(row.cells[0]!.trim() + row.i, (await click(row, new Set(passed))).length);
      }
      // The page lists the query messages: every one under eth; the SA:MP and Minecraft rows share them out; ICMPv6 and fragments none.
      const shown = [...shownBy.values()];
      expect(shown[0]).toBe(listed.length);
      expect(shown[4]! + shown[5]! + shown[9]! + shown[10]!).toBe(listed.length);
      expect([shown[2], shown[6], shown[11]]).toEqual([0, 0, 0]);
    });
  });

  it('-z io,phs: the protocol hierarchy as a table, as the JSON report has it', async () => {
    const r = run('stats', veth, '-z', 'io,phs', '-F', 'html');
    expect([r.status, r.stderr]).toEqual([0, '']);
    const file = join(dir, 'phs.html');
    writeFileSync(file, r.stdout);
    const tab = await browser.newPage();
    await tab.goto(`file://${file}`);
    const tables = await tab.$$eval('table.stat', (ts) =>
      ts.map((t) => ({
        caption: t.querySelector('caption')!.textContent,
        rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      })),
    );
    await tab.close();
    const phs = tables.find((t) => t.caption!.startsWith('Protocol hierarchy'))!;
    expect(phs.caption).toBe('Protocol hierarchy: 30 frames, 9048 bytes on the wire');
    interface Node {
      protocol: string;
      frames: number;
      bytes: number;
      children: Node[];
    }
    const { phsStats } = JSON.parse(run('stats', veth, '-z', 'io,phs', '-F', 'json').stdout) as { phsStats: { protocols: Node[] } };
    const want: string[][] = [];
    const walk = (nodes: Node[], depth: number): void => {
      for (const n of nodes) {
        want.push([`${'\u00a0'.repeat(4 * depth)}${n.protocol}`, String(n.frames), String(n.bytes)]);
        walk(n.children, depth + 1);
      }
    };
    walk(phsStats.protocols, 0);
    expect(phs.rows.map((row) => [row[0], row[2], row[4]])).toEqual(want);
    // Shares of the whole: the outermost protocol holds every frame.
    expect(phs.rows[0]!.slice(1)).toEqual(['100.0 %', '30', '100.0 %', '9048']);
    expect(want.map((w) => w[0]!.trim())).toContain('samp');
  });
});
