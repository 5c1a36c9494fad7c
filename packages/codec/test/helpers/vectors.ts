/** Loads every test vector below test-vectors/. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Vector {
  id: string;
  protocol: 'samp' | 'vcmp' | 'mcquery';
  message: string;
  direction: 'request' | 'response';
  layout: string;
  description: string;
  charset?: 'latin1' | 'windows-1252' | 'windows-1251' | 'utf8';
  hex: string;
  value?: Record<string, unknown>;
  canonicalHex?: string;
  warnings?: { code: string; field: string; offset: number }[];
  error?: { type: string; offset: number; field: string; message: string };
  fields: VectorNode[];
  source: string;
}
export interface VectorNode {
  abbrev: string;
  offset: number;
  length: number;
  value: unknown;
  children?: VectorNode[];
}

export const vectorRoot = new URL('../../../../test-vectors/', import.meta.url).pathname;

export function loadVectors(): Vector[] {
  const out: Vector[] = [];
  for (const proto of readdirSync(vectorRoot, { withFileTypes: true })) {
    if (!proto.isDirectory()) continue;
    for (const file of readdirSync(join(vectorRoot, proto.name)).sort()) {
      if (file.endsWith('.json')) out.push(JSON.parse(readFileSync(join(vectorRoot, proto.name, file), 'utf8')) as Vector);
    }
  }
  return out;
}
