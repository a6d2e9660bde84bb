import { describe, expect, it } from 'vitest';
import { fixJson } from '../util/fix-json';
import { splitArray } from '../util/split-array';
import { parsePartialJson } from '../util/parse-partial-json';

describe('vacuous controls', () => {
  it('fixes json', () => {
    expect(fixJson('{"a":1')).toBe('{"a":1}');
  });

  it('a conditional expect that runs', async () => {
    const r = await parsePartialJson('{"a":');
    if (r.state === 'repaired-parse') {
      expect(r.value).toEqual({});
    } else {
      expect(r.state).toBe('successful-parse');
    }
  });

  it('an unreachable marker in a try', () => {
    try {
      JSON.parse('{');
      expect(true).toBe(false);
    } catch (error) {
      expect(error).toBeInstanceOf(SyntaxError);
    }
  });

  it('an iteration of a filled array', () => {
    for (const chunk of splitArray([1, 2, 3], 2)) {
      expect(chunk.length).toBeLessThanOrEqual(2);
    }
  });

  it('an awaited rejects', async () => {
    await expect(Promise.reject(new Error('x'))).rejects.toThrow('x');
  });

  it('toContain on a computed array', () => {
    expect(splitArray([1, 2, 3], 1).map(c => c[0])).toContain(2);
  });

  it.each([1, 2])('each %i', n => {
    if (n > 5) {
      expect(n).toBe(0);
    }
    expect(n).toBeGreaterThan(0);
  });
});
