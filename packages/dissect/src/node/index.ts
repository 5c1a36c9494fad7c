/**
 * @gamequery/dissect/node — what needs Node.js: a capture file dissected in two passes
 * (reading it twice).
 */
export { dissectCaptureFile } from './file.ts';
