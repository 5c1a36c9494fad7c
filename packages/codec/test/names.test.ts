/**
 * One naming scheme for every layout export: `samp.<message><Direction>`, `vcmp.…`, `mcquery.…`,
 * each namespace holding exactly its protocol's layouts; the old flat names stay, as
 * deprecated aliases of the same objects, for one release.
 */
import { describe, expect, it } from 'vitest';
import * as codec from '@gamequery/codec';

const namespaces = { samp: codec.samp, vcmp: codec.vcmp, mcquery: codec.mcquery } as const;
const capital = (s: string): string => s[0]!.toUpperCase() + s.slice(1);

describe('layout names', () => {
  it("every layout is in its protocol's namespace as <message><Direction>, and nothing else is", () => {
    const named = Object.entries(namespaces).flatMap(([protocol, ns]) =>
      Object.entries(ns).map(([name, layout]) => {
        expect(layout.protocol).toBe(protocol);
        expect(name).toBe(`${layout.message}${capital(layout.direction)}`);
        return layout;
      }),
    );
    expect(new Set(named)).toEqual(new Set(codec.layouts));
    expect(named).toHaveLength(codec.layouts.length);
  });

  it('keeps the old flat names as the same layouts', () => {
    const old: Record<string, unknown> = codec;
    expect(old['infoResponse']).toBe(codec.samp.infoResponse);
    expect(old['vcmpInfoResponse']).toBe(codec.vcmp.infoResponse);
    expect(old['vcmpPingRequest']).toBe(codec.vcmp.pingRequest);
    expect(old['fullResponse']).toBe(codec.mcquery.fullResponse);
    const flat = Object.entries(namespaces).flatMap(([protocol, ns]) =>
      Object.entries(ns).map(([name, layout]) => [protocol === 'vcmp' ? `vcmp${capital(name)}` : name, layout] as const),
    );
    // Layouts added after the renaming have no deprecated flat name.
    const newer = new Set(['ompbannersResponse', 'ompechoRequest', 'ompechoResponse']);
    for (const [name, layout] of flat) expect(old[name], name).toBe(newer.has(name) ? undefined : layout);
  });
});
