import { describe, expect, it, vi } from 'vitest';
import { createNullLanguageModelUsage } from '../types/usage';

vi.mock('../types/usage');

describe('d05', () => {
  it('reads the cache reads of the null usage', () => {
    const u: any = createNullLanguageModelUsage();
    expect(u.cacheReadTokens).toBe(0);
  });
});
