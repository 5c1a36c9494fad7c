/**
 * One naming scheme for every layout export: `samp.<message><Direction>`, `vcmp.…`, `mcquery.…`,
 * each namespace holding exactly its protocol's layouts; the flat names of before
 * (`infoResponse`, `vcmpInfoResponse`, `fullResponse`) are gone.
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

  it('has no flat name for a layout: the namespaces are the one way to name them', () => {
    const exported: Record<string, unknown> = codec;
    const flat = Object.entries(namespaces).flatMap(([protocol, ns]) =>
      Object.keys(ns).map((name) => (protocol === 'vcmp' ? `vcmp${capital(name)}` : name)),
    );
    for (const name of flat) expect(exported[name], name).toBeUndefined();
  });
});
