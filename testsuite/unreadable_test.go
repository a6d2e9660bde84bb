package testsuite

import (
	"strings"
	"testing"
)

// TestUnreadable (issue 20 item 10): the test files audit cannot read, and
// why; the others are read.
func TestUnreadable(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		why       string // prefix; "" for a readable file
	}{
		{"vitest", "import { it, expect, vi } from 'vitest';\nvi.mock('./a');\nit('x', () => { expect(1).toBe(1); });\n", 0, ""},
		{"a syntax error", "import { it } from 'vitest';\nit('x', () => {\n  const = 1;\n});\n", 3, "syntax error: line 3:"},
		{"jest's globals", "jest.mock('./a');\ntest('x', () => { expect(jest.fn()).not.toHaveBeenCalled(); });\n", 1, "written for jest"},
		{"@jest/globals", "import { test, expect } from '@jest/globals';\ntest('x', () => { expect(1).toBe(1); });\n", 1, "written for jest"},
		{"jest's API beside a vitest import", "import { it, expect, vi } from 'vitest';\njest.mock('./a');\nit('x', () => { expect(vi.fn()).not.toHaveBeenCalled(); });\n", 2, "written for jest"},
		{"a jest of its own", "import { it, expect, vi } from 'vitest';\nconst jest = { mock: vi.fn() };\njest.mock('./a');\nit('x', () => { expect(1).toBe(1); });\n", 0, ""},
		{"vitest with a jest name in a string", "import { it, expect } from 'vitest';\nit('jest.mock', () => { expect('jest.fn()').toBeTruthy(); });\n", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, why := unreadable("a.test.ts", []byte(tc.src))
			if !strings.HasPrefix(why, tc.why) || (tc.why == "") != (why == "") || line != tc.line {
				t.Errorf("got %d %q, want %d %q...", line, why, tc.line, tc.why)
			}
		})
	}
}
