import { describe, expect, it, vi } from 'vitest';
import { openTelemetryChannelSpanContext } from '../telemetry/tracing-channel-publisher';

vi.mock('../telemetry/tracing-channel-publisher');

describe('d09', () => {
  it('opens a span context', () => {
    vi.mocked(openTelemetryChannelSpanContext).mockReturnValue({ execute: (f: any) => f() } as any);
    const c: any = openTelemetryChannelSpanContext({ message: {} as any, completion: Promise.resolve() });
    expect(c.execute(() => 7)).toBe(7);
  });
});
