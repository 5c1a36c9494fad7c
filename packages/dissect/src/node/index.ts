/**
 * @gamequery/dissect/node — what needs Node.js: a capture file dissected in two passes
 * (reading it twice).
 */
export { dissectCaptureFile } from './file.ts';
export { openInput, inputName, InputError, type InputErrorCode, type OpenedInput } from './input.ts';
