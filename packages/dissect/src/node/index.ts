/**
 * @gamequery/dissect/node — what needs Node.js: a capture file dissected on several
 * cores (worker threads).
 */
export { dissectCaptureParallel, type ParallelBatch, type ParallelOptions } from './parallel.ts';
export type { PieceFormat } from './messages.ts';
