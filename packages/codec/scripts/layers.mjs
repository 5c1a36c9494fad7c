/**
 * The codec's layers and which way their imports may point (`pnpm lint` runs this file; the
 * cycle check is dpdm's, `pnpm lint:cycles`). Each source file under src/ belongs to a layer:
 * its folder (protocols/ and export/ by subfolder) or, at the top of src/, the file itself.
 * A layer may import itself and the layers listed for it, nothing else; a file not in any layer
 * is an error too, so a new folder gets a line here (and a README saying what it holds).
 *
 *   node packages/codec/scripts/layers.mjs   prints each import that points the wrong way; exit 1 if any
 *
 * Plain JavaScript; reads imports with TypeScript's own pre-processor (static, type-only,
 * re-exports and `import()` alike).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const src = fileURLToPath(new URL('../src/', import.meta.url));

/** Each protocol's layer, and `protocols/index.ts` (layer `protocols`) over all of them. */
const protocols = ['protocols/samp', 'protocols/vcmp', 'protocols/mcquery', 'protocols'];
/** The codec's own entry and the tables over every protocol (src/*.ts). */
const core = ['packet.ts', 'registry.ts', 'json.ts'];

/** Layer → the layers it may import. Dependencies point one way: down this list. */
export const mayImport = {
  types: [],
  'errors.ts': [],
  grammar: ['errors.ts', 'types'],
  'protocols/samp': ['grammar', 'errors.ts'],
  // VC:MP's query is SA:MP's with another magic: its header is SA:MP's header builder.
  'protocols/vcmp': ['grammar', 'errors.ts', 'protocols/samp'],
  'protocols/mcquery': ['grammar', 'errors.ts'],
  protocols: ['grammar', 'errors.ts', 'protocols/samp', 'protocols/vcmp', 'protocols/mcquery'],
  'json.ts': ['grammar'],
  'packet.ts': ['grammar', 'errors.ts', ...protocols],
  'registry.ts': ['grammar', 'packet.ts', 'protocols'],
  'index.ts': ['grammar', 'errors.ts', ...protocols, ...core],
  // @gamequery/codec/define: the declaration language, all of it in grammar/.
  'define.ts': ['grammar'],
  pairing: ['grammar', 'errors.ts', ...protocols, 'packet.ts'],
  'export/wireshark': ['grammar', 'errors.ts', ...protocols, ...core],
  'export/kaitai': ['grammar', 'errors.ts', ...protocols, ...core],
  export: ['export/wireshark', 'export/kaitai'],
  client: ['grammar', 'errors.ts', ...protocols, ...core, 'pairing'],
  emulator: ['grammar', 'errors.ts', ...protocols, ...core],
  node: ['client', 'emulator'],
  // @gamequery/codec/internal: what the dissector and the CLI share with the codec, not API.
  'internal.ts': ['grammar', ...protocols, 'pairing'],
};

/**
 * Stated exceptions, `from → to` by file: each with its reason.
 * samp6.ts reads open.mp's proposed IPv6 header by re-decoding the payload behind today's
 * 11-byte header with the packet-level `identify` (it is no layout of its own).
 */
export const exceptions = new Set(['protocols/samp/samp6.ts -> packet.ts']);

/** The layer of a path relative to src/. */
export function layerOf(path) {
  const parts = path.split('/');
  if (parts.length === 1) return parts[0];
  if ((parts[0] === 'protocols' || parts[0] === 'export') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

/**
 * The imports that point the wrong way, as `from -> to (layer → layer)` lines. `files` maps each
 * path relative to src/ to its text; only relative specifiers are read (packages are not layers).
 */
export function violations(files) {
  const out = [];
  for (const [path, text] of Object.entries(files)) {
    const from = layerOf(path);
    const allowed = mayImport[from];
    if (!allowed) {
      out.push(`${path}: in no layer (add its layer to packages/codec/scripts/layers.mjs)`);
      continue;
    }
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = normalize(join(dirname(path), fileName))
        .split('\\')
        .join('/');
      const to = layerOf(target);
      if (to === from || allowed.includes(to) || exceptions.has(`${path} -> ${target}`)) continue;
      out.push(`${path} -> ${target} (${from} may not import ${to})`);
    }
  }
  return out;
}

/** Every .ts file under src/, relative path → text. */
export function sources() {
  const files = {};
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = relative(src, join(entry.parentPath ?? entry.path, entry.name))
      .split('\\')
      .join('/');
    files[path] = readFileSync(join(src, path), 'utf8');
  }
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const found = violations(sources());
  for (const line of found) console.error(`packages/codec/src/${line}`);
  if (found.length > 0) {
    console.error(`${found.length} import(s) against the codec's layers (packages/codec/scripts/layers.mjs)`);
    process.exit(1);
  }
  console.log('codec layers: every import points the allowed way');
}
