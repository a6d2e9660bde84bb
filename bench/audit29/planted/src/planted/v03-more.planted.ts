import { describe, expect, it } from 'vitest';
import { fixJson } from '../util/fix-json';
import { parsePartialJson } from '../util/parse-partial-json';

describe('v03', () => {
  it('v16 compares a value with itself', () => {
    const fixed = fixJson('{"a":1');
    expect(fixed).toBe(fixed);
  });

  it('v17 asserts on constants only', () => {
    fixJson('{');
    expect(true).toBe(true);
  });

  it('v18 asserts only after a return', () => {
    const fixed = fixJson('{');
    return;
    expect(fixed).toBe('{}');
  });

  it('v19 a then chain neither awaited nor returned', () => {
    parsePartialJson('{"a":1}').then(r => {
      expect(r.state).toBe('successful-parse');
    });
  });

  it('v20 an expect without a matcher', () => {
    expect(fixJson('['));
  });
});
