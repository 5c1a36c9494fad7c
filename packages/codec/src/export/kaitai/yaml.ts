/**
 * Just enough YAML for .ksy files: block maps and sequences, flow sequences, plain or
 * double-quoted scalars. Strings are written plain only where YAML reads them back as
 * the same string; everything else is double-quoted (JSON escapes are valid YAML).
 */

/** Written as is: hex numbers (`0x69`), enum references. */
export class Raw {
  constructor(readonly text: string) {}
}

/** A sequence written on one line: `[0xfe, 0xfd]`. */
export class Flow {
  constructor(readonly items: readonly YamlValue[]) {}
}

export type YamlValue =
  | string
  | number
  | boolean
  | Raw
  | Flow
  | readonly YamlValue[]
  | ReadonlyMap<string | Raw, YamlValue>
  | { readonly [key: string]: YamlValue | undefined };

const SPECIAL = /^(?:true|false|yes|no|on|off|y|n|null|~|[-+]?\.(?:inf|nan))$/i;

function scalar(v: string | number | boolean | Raw): string {
  if (v instanceof Raw) return v.text;
  if (typeof v !== 'string') return String(v);
  const plain =
    v !== '' &&
    !/^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(v) &&
    !/[\s:]$/.test(v) &&
    !/: | #|[\u0000-\u001f\u007f-\u009f]/.test(v) && // eslint-disable-line no-control-regex -- the control characters are what it looks for
    !SPECIAL.test(v) &&
    !/^[-+]?(?:\d|\.\d)/.test(v);
  return plain ? v : JSON.stringify(v);
}

const isScalar = (v: YamlValue): v is string | number | boolean | Raw => typeof v !== 'object' || v instanceof Raw;

function entries(v: YamlValue): [string, YamlValue][] | undefined {
  if (v instanceof Map) return [...v].map(([k, x]) => [k instanceof Raw ? k.text : scalar(k), x]);
  if (typeof v === 'object' && !(v instanceof Raw) && !(v instanceof Flow) && !Array.isArray(v)) {
    return Object.entries(v as Record<string, YamlValue | undefined>)
      .filter((e): e is [string, YamlValue] => e[1] !== undefined)
      .map(([k, x]) => [scalar(k), x]);
  }
  return undefined;
}

function inline(v: YamlValue): string | undefined {
  if (isScalar(v)) return scalar(v);
  if (v instanceof Flow) return `[${v.items.map((i) => inline(i) ?? JSON.stringify(i)).join(', ')}]`;
  if (Array.isArray(v) && v.length === 0) return '[]';
  const e = entries(v);
  if (e && e.length === 0) return '{}';
  return undefined;
}

function block(v: YamlValue, indent: string): string[] {
  const out: string[] = [];
  const e = entries(v);
  if (e) {
    for (const [k, x] of e) {
      const one = inline(x);
      if (one !== undefined) out.push(`${indent}${k}: ${one}`);
      else out.push(`${indent}${k}:`, ...block(x, `${indent}  `));
    }
    return out;
  }
  for (const item of v as readonly YamlValue[]) {
    const one = inline(item);
    if (one !== undefined) {
      out.push(`${indent}- ${one}`);
      continue;
    }
    const lines = block(item, `${indent}  `);
    out.push(`${indent}- ${lines[0]!.slice(indent.length + 2)}`, ...lines.slice(1));
  }
  return out;
}

/** A YAML document of `value` (a map), ending in a newline. */
export function toYaml(value: YamlValue): string {
  return `${block(value, '').join('\n')}\n`;
}
