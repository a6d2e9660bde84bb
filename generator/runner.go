package generator

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/oracle-ts/oracle/internal/vitestloc"
	"github.com/oracle-ts/oracle/testsuite"
)

// TestRunner is the test runner an oracle is written for: the spellings the
// one template (templates/oracle.test.ts.tmpl) fills in. The oracle's shape
// is the same on both: hoisted mocks of the defining modules (a factory
// that spreads the real module), in-place spies, every handle imported
// after the fixture's setup.
type TestRunner struct {
	// Name is "vitest" or "jest".
	Name string
	// NS is the namespace of the mock API: vi.mock, vi.fn, vi.spyOn,
	// vi.mocked; jest.mock, jest.fn, jest.spyOn, jest.mocked.
	NS string
	// From is the module the oracle imports the test API from ("vitest",
	// "@jest/globals"); "" uses jest's globals (typed by @types/jest).
	From string
	// MockType is the type of a variable holding a mock or a spy of the
	// function type F: MockInstance<F> (vitest), jest.SpiedFunction<F>.
	MockType string
	// MemberFn is the function type a spy on a member of the receiver is
	// typed with (MockType<Fn>): any member, whatever its visibility.
	// @types/jest's SpiedFunction infers the spy's `this` from it, never
	// when none is declared, and jest.spyOn's spy has `this: any`, which
	// only `any` (no `unknown`) takes.
	MemberFn string
	// Jest: the factory of a hoisted mock is synchronous and takes the
	// real module with jest.requireActual (jest hoists jest.mock above the
	// imports: the factory references no variable of the file's scope),
	// where vitest's awaits importOriginal.
	Jest bool
}

// Vitest is the runner of a repository tested with vitest (the default).
var Vitest = TestRunner{Name: "vitest", NS: "vi", From: "vitest", MockType: "MockInstance", MemberFn: "(...args: never[]) => unknown"}

// Jest is the runner of a repository tested with jest; globals: the oracle
// imports its API from @jest/globals, else it uses jest's globals.
func Jest(globals bool) TestRunner {
	r := TestRunner{Name: "jest", NS: "jest", MockType: "jest.SpiedFunction", MemberFn: "(this: any, ...args: never[]) => unknown", Jest: true}
	if globals {
		r.From = "@jest/globals"
	}
	return r
}

// RunnerOf is the runner of the repository at root's tests: jest when
// testsuite.RunsJest says its tests run on jest (the gate's and the
// audit's decision), else vitest. On jest, the oracle imports its API from
// @jest/globals when the repository declares that package (a dependency
// of its package.json: its tests import it, and it may turn jest's globals
// off, injectGlobals), or when @types/jest, which types jest's globals, is
// not installed and @jest/globals is; otherwise it uses jest's globals.
func RunnerOf(root string) TestRunner {
	if testsuite.RunsJest(root) == "" {
		return Vitest
	}
	has := func(pkg string) bool { return vitestloc.FindPackageFile(root, pkg+"/package.json") != "" }
	globals := has("@jest/globals") && (declares(root, "@jest/globals") || !has("@types/jest"))
	return Jest(globals)
}

// declares reports whether root's package.json lists pkg among its
// dependencies or devDependencies.
func declares(root, pkg string) bool {
	b, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		return false
	}
	var p struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if json.Unmarshal(b, &p) != nil {
		return false
	}
	return p.Dependencies[pkg] != "" || p.DevDependencies[pkg] != ""
}
