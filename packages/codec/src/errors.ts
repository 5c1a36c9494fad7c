/**
 * Typed errors. Every error the codec throws is a {@link CodecError} with a stable
 * `name`, a structured `info` and a message in one fixed wording per type, e.g.
 * `samp.info.hostname: requested 12 bytes, but only 7 bytes available at offset 20`.
 */

/** Where and why decoding or encoding stopped. */
export interface ErrorInfo {
  /** Layout id, e.g. `samp.info.response` (empty when no layout was chosen yet). */
  readonly layout: string;
  /** Field abbreviation, e.g. `samp.info.hostname`. */
  readonly field: string;
  /** Byte offset of the field within the message. */
  readonly offset: number;
  /** Bytes the field needed (truncation) */
  readonly needed?: number;
  /** Bytes that were left (truncation) */
  readonly available?: number;
  readonly expected?: string | number;
  readonly actual?: string | number;
}

/**
 * The base class of every error the codec throws: a stable `name`, a structured `info` (layout, field,
 * offset) and a message in one fixed wording per type.
 */
export abstract class CodecError extends Error {
  abstract override readonly name: string;
  readonly info: ErrorInfo;

  constructor(message: string, info: ErrorInfo) {
    super(message);
    this.info = info;
  }

  /** A plain object for JSON output (`{ type, message, ...info }`). */
  toJSON(): { type: string; message: string } & ErrorInfo {
    return { type: this.name, message: this.message, ...this.info };
  }
}

/** The message ends before a field does. */
export class TruncatedError extends CodecError {
  override readonly name = 'TruncatedError';
  constructor(info: ErrorInfo & { needed: number; available: number }, what = 'bytes') {
    super(
      what === 'bytes'
        ? `${info.field}: requested ${info.needed} bytes, but only ${info.available} bytes available at offset ${info.offset}`
        : `${info.field}: no ${what} in the ${info.available} bytes available at offset ${info.offset}`,
      info,
    );
  }
}

/** A fixed byte sequence (magic, section marker) is not what the layout requires. */
export class BadMagicError extends CodecError {
  override readonly name = 'BadMagicError';
  constructor(info: ErrorInfo & { expected: string; actual: string }) {
    super(`${info.field}: expected ${info.expected}, got ${info.actual} at offset ${info.offset}`, info);
  }
}

/** A constant field (opcode, packet type) holds another value than the layout's. */
export class UnexpectedValueError extends CodecError {
  override readonly name = 'UnexpectedValueError';
  constructor(info: ErrorInfo & { expected: string | number; actual: string | number }) {
    super(`${info.field}: expected ${info.expected}, got ${info.actual} at offset ${info.offset}`, info);
  }
}

/** The opcode or packet type byte names no message of the protocol. */
export class UnknownOpcodeError extends CodecError {
  override readonly name = 'UnknownOpcodeError';
  constructor(info: ErrorInfo & { actual: string | number }) {
    super(`${info.field}: unknown opcode ${info.actual} at offset ${info.offset}`, info);
  }
}

/** A length or count is outside what its field can carry. */
export class LengthOutOfRangeError extends CodecError {
  override readonly name = 'LengthOutOfRangeError';
  constructor(info: ErrorInfo & { actual: number; expected: string }) {
    super(`${info.field}: length ${info.actual} is out of range (${info.expected}) at offset ${info.offset}`, info);
  }
}

/** A value cannot be decoded (e.g. a decimal string that is not a number) or encoded. */
export class InvalidValueError extends CodecError {
  override readonly name = 'InvalidValueError';
  constructor(info: ErrorInfo & { actual: string }, reason: string) {
    super(`${info.field}: ${reason} at offset ${info.offset}`, info);
  }
}

/** The bytes match no message of any protocol, or several, and no hint settles it. */
export class UnrecognizedPacketError extends CodecError {
  override readonly name = 'UnrecognizedPacketError';
  constructor(reason: string, info: Partial<ErrorInfo> = {}) {
    super(reason, { layout: '', field: '', offset: 0, ...info });
  }
}

/** Whether `e` is an error the codec threw (any {@link CodecError}). */
export const isCodecError = (e: unknown): e is CodecError => e instanceof CodecError;
