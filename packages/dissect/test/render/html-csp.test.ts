/** The page's Content-Security-Policy names the SHA-256 of its own script and style (render/html-page.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ByteSink } from '@gamequery/codec/internal';
import { HtmlWriter } from '@gamequery/dissect';
import { PAGE_CSP, PAGE_SCRIPT, PAGE_STYLE } from '../../src/render/html-page.ts';

const sha256 = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

describe("the page's Content-Security-Policy", () => {
  it('allows its script and its style by hash, and nothing else from anywhere', () => {
    expect(PAGE_CSP).toBe(
      `default-src 'none'; script-src ${sha256(PAGE_SCRIPT)}; style-src ${sha256(PAGE_STYLE)}; img-src 'none'; base-uri 'none'; form-action 'none'`,
    );
  });

  it('is the first thing the page says after its charset, before its style and script', () => {
    const sink = new ByteSink();
    const page = new HtmlWriter(sink, { title: 't' });
    page.end();
    const html = sink.text();
    const meta = html.indexOf('http-equiv="Content-Security-Policy"');
    expect(meta).toBeGreaterThan(html.indexOf('charset'));
    expect(meta).toBeLessThan(html.indexOf('<style>'));
    // The one script element that runs holds the script the hash names, byte for byte.
    expect(html).toContain(`<script>${PAGE_SCRIPT}</script>`);
    expect(html).toContain(`<style>${PAGE_STYLE}</style>`);
  });
});
