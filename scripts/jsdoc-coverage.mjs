// Which public exports of @gamequery/codec and @gamequery/dissect have no JSDoc at their declaration.
// Public means: every name (value or type) exported by an entry of the package's `exports` map,
// read from the sources through the "@gamequery/source" condition with the TypeScript compiler API.
// Run `node scripts/jsdoc-coverage.mjs` for a report (exit 1 when something is undocumented);
// packages/codec/test/jsdoc.test.ts runs the same check.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages checked, by directory under packages/. */
export const packages = ['codec', 'dissect'];

/** The source file of each entry of a package's `exports` map (`./package.json` and JSON files left out). */
export function entriesOf(pkg) {
  const dir = join(root, 'packages', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const source = typeof target === 'object' ? target['@gamequery/source'] : undefined;
    if (!source) continue;
    const file = join(dir, source);
    if (!existsSync(file)) throw new Error(`${manifest.name} exports ${subpath} from ${source}, which does not exist`);
    entries.push({ specifier: manifest.name + subpath.slice(1), file });
  }
  return entries;
}

function hasDoc(symbol, checker) {
  if (symbol.getDocumentationComment(checker).some((part) => part.text.trim() !== '')) return true;
  // A tag with text (`@deprecated Use x.`) documents a name as well.
  return symbol.getJsDocTags(checker).some((tag) => (tag.text ?? []).some((part) => part.text.trim() !== ''));
}

/**
 * Every public export, one row per entry and name: `{ specifier, name, file, line, documented }`, where
 * `file` (relative to the repository) and `line` are where the name is declared.
 */
export function publicExports() {
  const entries = packages.flatMap(entriesOf);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'packages/dissect/tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const options = {
    ...config.options,
    noEmit: true,
    composite: false,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    skipLibCheck: true,
  };
  const program = ts.createProgram({ rootNames: entries.map((e) => e.file), options });
  const checker = program.getTypeChecker();
  const rows = [];
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`no module for ${entry.specifier} (${entry.file})`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      const file = declaration ? relative(root, declaration.getSourceFile().fileName) : '?';
      const line = declaration ? declaration.getSourceFile().getLineAndCharacterOfPosition(declaration.getStart()).line + 1 : 0;
      rows.push({
        specifier: entry.specifier,
        name: exported.name,
        file,
        line,
        documented: hasDoc(symbol, checker) || hasDoc(exported, checker),
      });
    }
  }
  return rows;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = publicExports();
  const missing = rows.filter((r) => !r.documented);
  for (const r of missing) console.log(`${r.file}:${r.line}\t${r.specifier}\t${r.name}`);
  const bySpecifier = new Map();
  for (const r of rows) {
    const count = bySpecifier.get(r.specifier) ?? { all: 0, documented: 0 };
    count.all += 1;
    if (r.documented) count.documented += 1;
    bySpecifier.set(r.specifier, count);
  }
  for (const [specifier, count] of bySpecifier) console.log(`${specifier}: ${count.documented} of ${count.all} documented`);
  console.log(`total: ${rows.length - missing.length} of ${rows.length} documented, ${missing.length} without JSDoc`);
  process.exitCode = missing.length ? 1 : 0;
}
