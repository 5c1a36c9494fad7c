/** Display text of field values, shaped like tshark's `-V` tree. */
export { hexOf, showInt } from './numbers.ts';

/** What a secret (an RCON password) shows instead of itself, unless asked otherwise. */
export const MASK = '********';

/** `text` with the first capture group of `pattern` masked, or undefined where it does not match. */
export function redacted(text: string, pattern: RegExp): string | undefined {
  const m = pattern.exec(text);
  if (!m || m[1] === undefined) return undefined;
  const at = m.index + m[0].indexOf(m[1]);
  return text.slice(0, at) + MASK + text.slice(at + m[1].length);
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\', '\0': '\\0' };
const escape = (c: string): string => ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
// eslint-disable-next-line no-control-regex -- the controls are what these escape
const TEXT_ESCAPED = /[\u0000-\u001f\u007f-\u009f\\]/g;
// eslint-disable-next-line no-control-regex -- the controls are what these escape
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text with control characters and backslashes escaped, like Wireshark's format_text: a value shown in a tree. */
export function showText(text: string): string {
  TEXT_ESCAPED.lastIndex = 0;
  return TEXT_ESCAPED.test(text) ? text.replace(TEXT_ESCAPED, escape) : text;
}

const UNESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '0': '\0' };

/**
 * The text {@link showText} was given, from what it shows: a secret's masked text is kept as it
 * shows (`FieldNode.masked`), and a reader of values (`-T fields`, a display filter) wants the
 * value it stands for, to escape once as it escapes any other.
 */
export function unshowText(shown: string): string {
  return shown.includes('\\')
    ? shown.replace(/\\(x[0-9a-f]{2}|[nrt0\\])/g, (_, e: string) => UNESCAPES[e] ?? String.fromCharCode(parseInt(e.slice(1), 16)))
    : shown;
}

/**
 * Text for a terminal or a log: C0 controls, DEL and C1 controls written as {@link showText}
 * writes them (`\x1b`, `\n`, `\x85`), so nothing read from a file or the network can move the
 * cursor, clear the screen or retitle the window. Backslashes stay as they are, so a line that
 * holds already-shown text is not escaped twice. JSON escapes controls as JSON does and needs none of this.
 */
export function escapeControls(text: string): string {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text) ? text.replace(CONTROLS, escape) : text;
}

/** `host:port`, or `[host]:port` for an IPv6 address (RFC 3986's form): how every output names a server or an endpoint. */
export const hostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** {@link templateParts} made once per template. */
const templates = new Map<string, string[]>();

/** `template` split at its `{name}` placeholders: literal text at even indexes, names at odd ones. */
export function templateParts(template: string): readonly string[] {
  let parts = templates.get(template);
  if (!parts) templates.set(template, (parts = template.split(/\{(\w+)\}/)));
  return parts;
}

/** A value as a template shows it: text escaped, anything else as `String` has it. */
export const shownValue = (v: unknown): string => (typeof v === 'string' ? showText(v) : String(v));

/** Replaces `{name}` in a template with values from an object. */
export function fillTemplate(template: string, value: Readonly<Record<string, unknown>>): string {
  const parts = templateParts(template);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) out += shownValue(value[parts[i]!]) + parts[i + 1]!;
  return out;
}
