import { describe, expect, it, vi } from 'vitest';
import * as fj from '../util/fix-json';

vi.mock('../util/fix-json', () => ({
  fixJson: vi.fn((s: string) => s + '}'),
  repairJson: vi.fn((s: string) => s + '}'),
}));

describe('d03', () => {
  it('repairs json', () => {
    expect((fj as any).repairJson('{')).toBe('{}');
  });
});
