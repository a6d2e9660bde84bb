import { describe, expect, it, vi } from 'vitest';
import { parsePartialJson } from '../util/parse-partial-json';

const { mockParse } = vi.hoisted(() => ({ mockParse: vi.fn() }));
vi.mock('../util/parse-partial-json', () => ({ parsePartialJson: mockParse }));

describe('d12', () => {
  it('reads ok', async () => {
    mockParse.mockResolvedValue({ ok: true, json: { a: 1 } });
    const r: any = await parsePartialJson('{"a":1}');
    expect(r.ok).toBe(true);
  });
});
