import { describe, expect, it } from 'vitest';
import { fixJson } from '../util/fix-json';
import { splitArray } from '../util/split-array';
import { parsePartialJson } from '../util/parse-partial-json';
import { cosineSimilarity } from '../util/cosine-similarity';

describe('v01', () => {
  it('v01 truthy without the call', () => {
    const fixed = fixJson('{"a":1');
    expect(fixed).toBeTruthy;
  });

  it('v02 not null without the call', () => {
    expect(splitArray([1, 2, 3], 2)).not.toBeNull;
  });

  it('v03 catch on an expect', async () => {
    await expect(parsePartialJson('{"a":')).resolves.toEqual({ value: 42 }).catch(() => {});
  });

  it('v04 toContain on a literal array', () => {
    fixJson('[1');
    expect(['a', 'b', 'c']).toContain('b');
  });

  it('v05 assertion in a branch never taken', async () => {
    const r = await parsePartialJson('{"a":1}');
    if (r.state === 'failed-parse') {
      expect(r.value).toBeUndefined();
    }
  });

  it('v06 expect in a callback never called', () => {
    const chunks = splitArray([], 2);
    chunks.forEach(chunk => {
      expect(chunk.length).toBeLessThanOrEqual(2);
    });
  });

  it('v07 no assertion at all', () => {
    fixJson('{"a":[1,2');
    cosineSimilarity([1, 0], [0, 1]);
  });

  it('v08 conditional expect in a catch never reached', () => {
    try {
      fixJson('{');
    } catch (error) {
      expect(error).toBeInstanceOf(Error);
    }
  });

  it('v09 a conditional expect not taken beside one that runs', () => {
    const s = cosineSimilarity([1, 0], [1, 0]);
    expect(typeof s).toBe('number');
    if (s < 0) {
      expect(s).toBeGreaterThanOrEqual(-1);
    }
  });

  it('v10 a ternary expect not taken', () => {
    const fixed = fixJson('{"a":1');
    fixed.length > 1000 ? expect(fixed).toContain('a') : undefined;
  });

  it('v11 a short-circuit expect not taken', () => {
    const fixed = fixJson('[1,2');
    fixed === 'never' && expect(fixed).toBe('never');
  });

  it('v12 an unawaited rejects', () => {
    expect(parsePartialJson('{}')).resolves.toBeDefined;
  });

  it('v13 a callback option never called', () => {
    const opts = { onError: (e: unknown) => expect(e).toBeUndefined() };
    fixJson(JSON.stringify(Object.keys(opts)));
  });

  it('v14 a swallowed assertion', () => {
    try {
      expect(fixJson('{')).toBe('nothing like it');
    } catch {
      // ignored
    }
  });
});

expect(fixJson('{')).toBe('{}');

describe('v15 standalone in a describe body', () => {
  expect(splitArray([1, 2], 1)).toHaveLength(2);

  it('runs something', () => {
    expect(fixJson('[')).toBe('[]');
  });
});
