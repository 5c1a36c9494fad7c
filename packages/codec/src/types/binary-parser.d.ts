// binary-parser 2.3.0 ships typings but its "exports" map does not point `import` at
// them; re-export the declarations it ships.
declare module 'binary-parser' {
  export { Parser } from 'binary-parser/dist/binary_parser.js';
}
