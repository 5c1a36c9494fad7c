/**
 * The style and the script of the HTML view (html.ts), inlined into every page: no network,
 * no framework. The script reads the packets from the page's JSON and draws the list once,
 * and a packet's tree and bytes when it is selected.
 *
 * Keys: in the packet list ↑ ↓ Home End choose a packet, → or Enter go to its tree; in the
 * tree ↑ ↓ choose a field (its bytes light up), Enter follows a link, ← goes back to the
 * list. A click on a byte selects the innermost field that covers it.
 */

const HTML_SPECIAL = /[&<>"']/;
/**
 * Text as HTML (an element's text or an attribute's value): the five characters that could end
 * either as character references. Most text has none (a table's numbers): tested first, not rebuilt.
 */
export const escapeHtml = (s: string): string => (HTML_SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`) : s);

export const PAGE_STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1b1b; --muted: #666; --line: #d0d0d0; --sel: #cfe3ff; --hl: #ffe08a; --link: #0645ad; --bad: #a40000; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181c; --fg: #e4e4e4; --muted: #9a9a9a; --line: #3a3d44; --sel: #23446e; --hl: #6b5314; --link: #8ab4f8; --bad: #ff8a80; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 13px/1.35 system-ui, sans-serif; }
header { padding: 4px 10px; border-bottom: 1px solid var(--line); }
h1 { font-size: 15px; margin: 2px 0; }
#notice { margin: 2px 0; color: var(--muted); }
#notice .error { color: var(--bad); }
main { display: grid; grid-template-columns: 1fr 1fr; grid-template-rows: 42vh calc(58vh - 60px); }
section { overflow: auto; border-bottom: 1px solid var(--line); }
#list-pane { grid-column: 1 / 3; }
#tree-pane { border-right: 1px solid var(--line); padding: 4px 6px; }
table { border-collapse: collapse; width: 100%; font: 12px/1.3 ui-monospace, monospace; }
th { position: sticky; top: 0; background: var(--bg); text-align: left; border-bottom: 1px solid var(--line); padding: 2px 6px; }
td { padding: 1px 6px; white-space: nowrap; }
td:nth-child(1), td:nth-child(6) { text-align: right; }
tbody tr { cursor: pointer; }
tbody tr[aria-selected="true"] { background: var(--sel); }
tr:focus, li:focus { outline: 1px dotted var(--fg); }
ul { list-style: none; margin: 0; padding-left: 16px; font: 12px/1.4 ui-monospace, monospace; }
#tree { padding-left: 0; }
li > span { cursor: pointer; padding: 0 2px; }
li.sel > span { background: var(--sel); }
li.generated > span { color: var(--muted); }
a { color: var(--link); }
#notes { padding-left: 0; margin-top: 6px; color: var(--bad); }
#hex { margin: 0; padding: 4px 8px; font: 12px/1.4 ui-monospace, monospace; }
#hex span { cursor: pointer; }
#hex span.hl { background: var(--hl); }
#hex .off { color: var(--muted); cursor: default; }
#filter { margin: 2px 0; font: 12px ui-monospace, monospace; }
body { display: flex; flex-direction: column; }
header { order: 0; }
#stats { order: 1; border-bottom: 1px solid var(--line); padding: 4px 10px; display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; max-height: 50vh; overflow: auto; }
main { order: 2; }
main[hidden] { display: none; }
body:has(main[hidden]) #stats { max-height: none; }
#stats .hint { flex-basis: 100%; margin: 0; color: var(--muted); }
.chart { background: var(--bg); border: 1px solid var(--line); max-width: 100%; height: auto; }
.chart text { fill: var(--fg); font: 10px system-ui, sans-serif; }
.chart .t { font-weight: 600; font-size: 11px; }
.chart .a { fill: var(--muted); }
.chart .axis { stroke: var(--line); }
.chart .req { fill: var(--link); opacity: 0.75; }
.chart .rep { fill: none; stroke: var(--bad); stroke-width: 1.5; }
.chart .hit { fill: transparent; cursor: pointer; }
.chart .hit:hover, .chart .hit:focus, .chart rect.hit.on { fill: var(--hl); opacity: 0.45; }
.chart g[data-filter]:hover .req, .chart g[data-filter]:focus .req, .chart g.on .req { fill: var(--bad); opacity: 1; }
.chart g[data-filter] .hit:hover { fill: transparent; }
.chart g[data-filter] { cursor: pointer; }
tbody tr.out { display: none; }
table.stat { width: auto; background: var(--bg); border: 1px solid var(--line); }
table.stat caption { text-align: left; font: 600 11px system-ui, sans-serif; padding: 2px 6px; }
table.stat td:nth-child(1), table.stat td:nth-child(6) { text-align: left; }
table.stat td.r, table.stat th.r { text-align: right; }
table.stat tfoot td { border-top: 1px solid var(--line); color: var(--muted); }
table.stat tbody tr:hover, table.stat tbody tr.on { background: var(--hl); }
`;

export const PAGE_SCRIPT = `
(() => {
  'use strict';
  const packets = JSON.parse(document.getElementById('packets').textContent);
  const info = JSON.parse(document.getElementById('info').textContent);
  const byFrame = new Map(packets.map((p, i) => [p.n, i]));
  const body = document.querySelector('#list tbody');
  const tree = document.getElementById('tree');
  const notes = document.getElementById('notes');
  const hex = document.getElementById('hex');
  const notice = document.getElementById('notice');
  let current = -1;

  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };

  // The statistics alone (gamequery stats -F html): no packets, so no panes; a chart's filter is for -Y.
  if (!packets.length && document.getElementById('stats')) document.querySelector('main').hidden = true;
  notice.textContent = !packets.length && document.getElementById('stats')
    ? 'The statistics alone: no packets in this page. A click on a chart gives the display filter of what it counts, for gamequery dissect FILE -Y.'
    : info.omitted
    ? 'The first ' + info.shown + ' packets of ' + (info.shown + info.omitted) + ' (' + info.omitted + ' more not in this page; choose fewer with -Y or -c).'
    : info.shown + ' packet' + (info.shown === 1 ? '' : 's') + '.';
  for (const e of info.errors) notice.append(' ', el('span', e, 'error'));

  const rows = document.createDocumentFragment();
  packets.forEach((p, i) => {
    const tr = el('tr');
    tr.id = 'f' + p.n;
    tr.tabIndex = -1;
    tr.dataset.i = i;
    for (const v of [p.n, p.t, p.s, p.d, p.p, p.l, p.i + (p.k ? ' ' + p.k : '')]) tr.append(el('td', String(v)));
    rows.append(tr);
  });
  body.append(rows);

  function select(i, focus) {
    if (i < 0 || i >= packets.length) return;
    const old = body.children[current];
    if (old) { old.setAttribute('aria-selected', 'false'); old.tabIndex = -1; }
    current = i;
    const row = body.children[i];
    row.setAttribute('aria-selected', 'true');
    row.tabIndex = 0;
    row.scrollIntoView({ block: 'nearest' });
    if (focus) row.focus();
    draw(packets[i]);
  }

  function draw(p) {
    tree.textContent = '';
    const add = (parent, nodes) => {
      for (const [text, off, len, children, abbrev, link] of nodes) {
        const li = el('li');
        li.setAttribute('role', 'treeitem');
        li.tabIndex = -1;
        li.dataset.off = off;
        li.dataset.len = len;
        li.title = abbrev;
        if (off < 0) li.className = 'generated';
        const label = el('span');
        if (link !== undefined && byFrame.has(link)) {
          const m = /^(.*?)(\\d+)(\\]?)$/.exec(text);
          const a = el('a', m ? m[2] : String(link));
          a.href = '#f' + link;
          a.dataset.frame = link;
          label.append(m ? m[1] : text + ' ', a, m ? m[3] : '');
        } else {
          label.textContent = text;
        }
        li.append(label);
        if (children.length) {
          const ul = el('ul');
          ul.setAttribute('role', 'group');
          add(ul, children);
          li.append(ul);
        }
        parent.append(li);
      }
    };
    add(tree, p.f);
    notes.textContent = '';
    for (const w of p.w) notes.append(el('li', w));
    hex.textContent = '';
    const n = p.x.length / 2;
    for (let row = 0; row < n; row += 16) {
      hex.append(el('span', row.toString(16).padStart(4, '0') + '  ', 'off'));
      let ascii = [];
      for (let i = row; i < row + 16; i++) {
        if (i >= n) { hex.append('   '); continue; }
        const h = p.x.slice(i * 2, i * 2 + 2);
        const b = el('span', h);
        b.dataset.i = i;
        hex.append(b, i === row + 15 ? '' : ' ');
        const code = parseInt(h, 16);
        const a = el('span', h === '**' ? '*' : code >= 32 && code < 127 ? String.fromCharCode(code) : '.');
        a.dataset.i = i;
        ascii.push(a);
      }
      hex.append('  ', ...ascii, '\\n');
    }
  }

  function pick(li) {
    for (const s of tree.querySelectorAll('li.sel')) s.classList.remove('sel');
    for (const s of hex.querySelectorAll('.hl')) s.classList.remove('hl');
    if (!li) return;
    li.classList.add('sel');
    li.tabIndex = 0;
    li.focus();
    const off = Number(li.dataset.off), len = Number(li.dataset.len);
    for (const s of hex.querySelectorAll('span[data-i]')) {
      const i = Number(s.dataset.i);
      if (i >= off && i < off + len) s.classList.add('hl');
    }
  }

  function follow(frame) {
    const i = byFrame.get(Number(frame));
    if (i !== undefined) select(i, true);
  }

  body.addEventListener('click', (e) => { const tr = e.target.closest('tr'); if (tr) select(Number(tr.dataset.i), true); });
  body.addEventListener('keydown', (e) => {
    const to = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: packets.length - 1 }[e.key];
    if (to !== undefined) { e.preventDefault(); select(Math.max(0, Math.min(packets.length - 1, to)), true); }
    else if (e.key === 'ArrowRight' || e.key === 'Enter') { e.preventDefault(); pick(tree.querySelector('li')); }
  });
  tree.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-frame]');
    if (a) { e.preventDefault(); follow(a.dataset.frame); return; }
    const li = e.target.closest('li');
    if (li) pick(li);
  });
  tree.addEventListener('keydown', (e) => {
    const items = [...tree.querySelectorAll('li')];
    const at = items.indexOf(document.activeElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') { e.preventDefault(); pick(items[Math.max(0, Math.min(items.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))]); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); body.children[current]?.focus(); }
    else if (e.key === 'Enter') { const a = document.activeElement?.querySelector(':scope > span a[data-frame]'); if (a) { e.preventDefault(); follow(a.dataset.frame); } }
  });
  hex.addEventListener('click', (e) => {
    const s = e.target.closest('span[data-i]');
    if (!s) return;
    const i = Number(s.dataset.i);
    let best = null;
    for (const li of tree.querySelectorAll('li')) {
      const off = Number(li.dataset.off), len = Number(li.dataset.len);
      if (off >= 0 && i >= off && i < off + len && (!best || len <= Number(best.dataset.len))) best = li;
    }
    pick(best);
  });

  // A chart's bar or interval: the packets it counts, the rest of the list hidden; its display filter shown.
  const filterLine = document.getElementById('filter');
  // A Source or Destination cell's address: [v6]:port and v4:port lose the port; a bare address (IPv6 too) or a MAC stays.
  const endpoint = (s) => s[0] === '[' ? s.slice(1, s.indexOf(']')) : s.split(':').length === 2 ? s.slice(0, s.indexOf(':')) : s;
  const end = (s, ports) => (ports ? s : endpoint(s));
  const rttOf = (p) => { const m = /\\[RTT ([\\d.]+) ms\\]/.exec(p.k || ''); return m ? Number(m[1]) : undefined; };
  // A filter as a shell takes it: in double quotes, or in single quotes where the shell would read into double ones.
  const quoted = (s) => /["$\\\\\`!]/.test(s) ? "'" + s.replace(/'/g, "'\\\\''") + "'" : '"' + s + '"';
  function applyFilter(f, display, target) {
    const keep = (p) => {
      const t = Number(p.t);
      // An interval holds its start, not its end; the last one holds the last frame, at its end.
      if (f.from !== undefined && !(t >= f.from - 1e-9 && (t < f.to - 1e-9 || (f.last && t <= f.to + 1e-9)))) return false;
      if (f.server !== undefined && p.s !== f.server && p.d !== f.server) return false;
      if (f.src !== undefined && endpoint(p.s) !== f.src) return false;
      if (f.dst !== undefined && endpoint(p.d) !== f.dst) return false;
      if (f.pair !== undefined) {
        const a = end(p.s, f.ports), b = end(p.d, f.ports);
        if (!((a === f.pair[0] && b === f.pair[1]) || (a === f.pair[1] && b === f.pair[0]))) return false;
      }
      if (f.end !== undefined && end(p.s, f.ports) !== f.end && end(p.d, f.ports) !== f.end) return false;
      if (f.expert !== undefined && !p.w.includes(f.expert)) return false;
      if (f.phs !== undefined && p.h !== f.phs && !p.h.startsWith(f.phs + ':')) return false;
      if (f.within !== undefined && !(p.z && p.z.includes(f.within))) return false;
      if (f.rttFrom !== undefined) { const r = rttOf(p); if (r === undefined || r < f.rttFrom - 5e-4 || r > f.rttTo + 5e-4) return false; }
      return true;
    };
    let n = 0, first = -1;
    packets.forEach((p, i) => { const ok = keep(p); body.children[i].classList.toggle('out', !ok); if (ok) { n++; if (first < 0) first = i; } });
    for (const e of document.querySelectorAll('#stats .on')) e.classList.remove('on');
    target?.classList.add('on');
    filterLine.hidden = false;
    filterLine.firstElementChild.textContent = n + ' of ' + packets.length + ' packets: -Y ' + quoted(display);
    if (first >= 0) select(first, false);
  }
  document.getElementById('clear').addEventListener('click', () => {
    for (const tr of body.children) tr.classList.remove('out');
    for (const e of document.querySelectorAll('#stats .on')) e.classList.remove('on');
    filterLine.hidden = true;
  });
  const stats = document.getElementById('stats');
  const chosen = (e) => { const t = e.target.closest('[data-filter]'); if (t) applyFilter(JSON.parse(t.dataset.filter), t.dataset.display, t); };
  stats?.addEventListener('click', chosen);
  stats?.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); chosen(e); } });

  const start = location.hash && byFrame.get(Number(location.hash.slice(2)));
  if (packets.length) select(start || 0, true);
})();
`;

/**
 * The page's Content-Security-Policy, in a meta element before anything it governs: nothing
 * from anywhere, and only this script and this style, by their SHA-256 (the JSON data blocks
 * are not scripts). Written here by hand, checked against the constants by a test
 * (test/render/html-csp.test.ts): change the script or the style and the test gives the new values.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'sha256-LTysTKIVebeFoLPsFVhkHZOxg77aGxGkmcPL6+RS4q4='",
  "style-src 'sha256-o4fDPGlazda2of1z/V1LihnbAJBZJ2QuT5jr2mfymb0='",
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
