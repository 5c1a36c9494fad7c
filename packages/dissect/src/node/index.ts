/**
 * @gamequery/dissect/node — what needs Node.js: a capture file dissected in two passes
 * (reading it twice), an input opened by what its first bytes are, and a live capture run by
 * dumpcap or tcpdump.
 */
export { dissectCaptureFile, fileChunks } from './file.ts';
export { openInput, inputName, InputError, type InputErrorCode, type OpenedInput } from './input.ts';
export {
  listInterfaces,
  openLiveCapture,
  LiveCaptureError,
  type CaptureInterface,
  type LiveCapture,
  type LiveCaptureEnd,
  type LiveCaptureErrorCode,
  type LiveCaptureOptions,
} from './live.ts';
