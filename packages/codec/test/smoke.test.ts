import { expect, it } from 'vitest';
import { placeholder } from '@gamequery/codec';
it('resolves the workspace package to its sources', () => { expect(placeholder).toBe(1); });
