// Types for the part of kaitai-struct-compiler 0.11 (Scala.js, untyped) that the Kaitai export tests use.
declare module 'kaitai-struct-compiler' {
  const KaitaiStructCompiler: {
    /** Compiles a parsed .ksy for `lang`: the generated files' text by name. */
    compile(lang: string, ksy: unknown, importer: unknown, debug: boolean): Promise<Record<string, string>>;
  };
  export default KaitaiStructCompiler;
}
