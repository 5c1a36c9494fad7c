/**
 * @gamequery/dissect/node — what needs Node.js: a capture file dissected in two passes
 * (reading it twice), or on several cores (worker threads).
 */
export { dissectCaptureFile } from './file.ts';
export { dissectCaptureParallel, type ParallelBatch, type ParallelOptions } from './parallel.ts';
export type { PieceFormat } from './messages.ts';
