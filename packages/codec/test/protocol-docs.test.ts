/**
 * The protocol reference in packages/codec/docs/protocols/ is generated from the declarations
 * (scripts/protocol-docs.ts, `pnpm docs:protocols`) and shipped with the package: it must
 * equal what the declarations give today, page for page, with no page left over.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fieldRegistry, layouts } from '@gamequery/codec';
import { pagesDir, protocolPages } from '../scripts/protocol-docs.ts';

const pages = protocolPages();

describe('docs/protocols', () => {
  it('has one page per protocol, and no other', () => {
    expect(readdirSync(pagesDir).sort()).toEqual([...new Set(layouts.map((l) => `${l.protocol}.md`))].sort());
  });

  it.each([...pages.keys()])('%s is what the declarations give (run pnpm docs:protocols after changing a layout)', (name) => {
    expect(readFileSync(`${pagesDir}${name}`, 'utf8')).toBe(pages.get(name));
  });

  it('names every wire field of the registry and every layout', () => {
    const text = [...pages.values()].join('\n');
    for (const field of fieldRegistry) if (!field.generated) expect(text, field.abbrev).toContain(`\`${field.abbrev}\``);
    for (const layout of layouts) expect(text, layout.id).toContain(`— \`${layout.id}\``);
  });

  it('gives the byte offsets the codec reads at, on every test vector', () => {
    const vectors = `${new URL('../../../test-vectors/', import.meta.url).pathname}`;
    let compared = 0;
    for (const protocol of new Set(layouts.map((l) => l.protocol))) {
      for (const file of readdirSync(`${vectors}${protocol}`)) {
        const vector = JSON.parse(readFileSync(`${vectors}${protocol}/${file}`, 'utf8')) as {
          layout: string;
          fields?: { abbrev: string; offset: number }[];
        };
        const page = pages.get(`${protocol}.md`)!;
        const start = page.indexOf(`— \`${vector.layout}\``);
        expect(start, vector.layout).toBeGreaterThan(0);
        const section = page.slice(start, page.indexOf('\n### ', start + 1) >>> 0 || undefined);
        // Rows with an absolute offset: `| 16 | 4 | uint32 LE | \`samp.info.hostname.len\` | …`
        const offsets = new Map([...section.matchAll(/^\| (\d+) \|[^|]*\|.*?\| `([^`]+)` \|/gm)].map((m) => [m[2]!, Number(m[1])]));
        const fields = vector.fields ?? [];
        for (const field of fields) {
          // A list's entries repeat: only the first is at the page's offset.
          if (!offsets.has(field.abbrev) || fields.filter((f) => f.abbrev === field.abbrev).length > 1) continue;
          expect(offsets.get(field.abbrev), `${file} ${field.abbrev}`).toBe(field.offset);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
  });
});
