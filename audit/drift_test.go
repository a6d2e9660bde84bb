package audit

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestMockDrift: a table of finding / no finding; the first is the seed's
// case (the real action returns { success, details: { passed } }, the mock
// returns { passed }, the consumer reads .passed).
func TestMockDrift(t *testing.T) {
	action := "export async function runChecks(id: number) {\n  const passed = id > 0;\n  return { success: true, details: { passed } };\n}\n" +
		"export function version() {\n  return { major: 1 };\n}\n" +
		"export function opaque() {\n  return external();\n}\n" +
		"export function helped() {\n  return build(1);\n}\nfunction build(n: number) { return { total: n, items: [] }; }\n" +
		"export interface Report { count: number; revenue: number }\nexport function typed(): Promise<Report> {\n  return external();\n}\n"
	for _, tc := range []struct {
		name, mock string
		want       []string // "rule:line"
	}{
		{"the seed's drift: { passed } for { success, details: { passed } }",
			`vi.mock("../src/action", () => ({ runChecks: vi.fn().mockResolvedValue({ passed: true }) }));`,
			[]string{"mock-drift/shape:3"}},
		{"the real shape", `vi.mock("../src/action", () => ({ runChecks: vi.fn().mockResolvedValue({ success: true, details: { passed: false } }) }));`, nil},
		{"a part of the real shape", `vi.mock("../src/action", () => ({ runChecks: vi.fn().mockResolvedValue({ success: false }) }));`, nil},
		{"an export the module does not have", `vi.mock("../src/action", () => ({ runCheck: vi.fn() }));`, []string{"mock-drift/unknown-export:3"}},
		{"resolved where the real function is sync", `vi.mock("../src/action", () => ({ version: vi.fn().mockResolvedValue({ major: 2 }) }));`, []string{"mock-drift/async:3"}},
		{"plain where the real function is async", `vi.mock("../src/action", () => ({ runChecks: vi.fn().mockReturnValue({ success: true }) }));`, []string{"mock-drift/async:3"}},
		{"an implementation", `vi.mock("../src/action", () => ({ version: vi.fn(() => ({ minor: 1 })) }));`, []string{"mock-drift/shape:3"}},
		{"through a local helper", `vi.mock("../src/action", () => ({ helped: vi.fn().mockReturnValue({ sum: 1 }) }));`, []string{"mock-drift/shape:3"}},
		{"through a local helper, the real shape", `vi.mock("../src/action", () => ({ helped: vi.fn().mockReturnValue({ total: 1 }) }));`, nil},
		{"the declared return type", `vi.mock("../src/action", () => ({ typed: vi.fn().mockResolvedValue({ cnt: 1 }) }));`, []string{"mock-drift/shape:3"}},
		{"a Promise-returning function is async", `vi.mock("../src/action", () => ({ typed: vi.fn().mockReturnValue({ count: 1 }) }));`, []string{"mock-drift/async:3"}},
		{"the real value cannot be read: nothing said", `vi.mock("../src/action", () => ({ opaque: vi.fn().mockReturnValue({ z: 1 }) }));`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeRepo(t, map[string]string{
				"src/action.ts":  action,
				"test/a.test.ts": "import { vi, it, expect } from 'vitest';\nimport { runChecks } from '../src/action';\n" + tc.mock + "\nit('x', async () => { expect((await runChecks(1)).success).toBe(true); });\n",
			})
			rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings {
				if strings.HasPrefix(f.Rule, "mock-drift") {
					got = append(got, f.Rule+":"+strconv.Itoa(f.Line))
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
				for _, f := range rep.Findings {
					t.Log(f.Rule, f.Message)
				}
			}
		})
	}
}
