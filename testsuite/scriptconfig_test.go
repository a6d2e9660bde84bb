package testsuite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptConfig: the config the package's test script names, through
// the scripts it runs; none when the vitest command names none, or the file
// is not one of the package.
func TestScriptConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, scripts      string
		wantFile, wantFrom string
	}{
		{"--config FILE", `{"test":"vitest --config vitest.node.config.js --run"}`, "vitest.node.config.js", "test"},
		{"-c FILE", `{"test":"vitest run -c vitest.node.config.js"}`, "vitest.node.config.js", "test"},
		{"--config=FILE", `{"test":"vitest run --config=./vitest.node.config.js"}`, "vitest.node.config.js", "test"},
		{"-c=FILE, quoted, env and npx first", `{"test":"cross-env TZ=UTC npx vitest -c='cfg/unit.config.ts'"}`, "cfg/unit.config.ts", "test"},
		{"the bin path", `{"test":"node_modules/.bin/vitest --config vitest.node.config.js"}`, "vitest.node.config.js", "test"},
		{"delegated (vercel/ai): the first that names one", `{"test":"pnpm test:node && pnpm test:edge","test:edge":"vitest --config vitest.edge.config.js --run","test:node":"vitest --config vitest.node.config.js --run"}`, "vitest.node.config.js", "test:node"},
		{"npm run, through a script without one", `{"test":"npm run lint && npm run test:unit","lint":"eslint .","test:unit":"yarn run test:vitest","test:vitest":"vitest -c vitest.edge.config.js"}`, "vitest.edge.config.js", "test:vitest"},
		{"pnpm -s, bun run", `{"test":"pnpm -s test:a","test:a":"bun run test:b","test:b":"vitest --config vitest.node.config.js"}`, "vitest.node.config.js", "test:b"},
		{"run-s with a pattern: the first match in the file's order", `{"test":"pnpx run-s lint test:*","lint":"eslint .","test:types":"tsc","test:node":"vitest --config vitest.node.config.js","test:edge":"vitest --config vitest.edge.config.js","test:node:watch":"vitest -c cfg/unit.config.ts"}`, "vitest.node.config.js", "test:node"},
		{"npm-run-all -p, names, a flag's value, ** across segments", `{"test":"npm-run-all --max-parallel 2 -p build test:**","build":"tsc","test:unit:edge":"vitest -c vitest.edge.config.js"}`, "vitest.edge.config.js", "test:unit:edge"},
		{"run-p: * stays in one segment", `{"test":"bunx run-p test:*","test:unit:edge":"vitest -c vitest.edge.config.js"}`, "", ""},
		{"npm-run-all: a pattern's arguments", `{"test":"npm-run-all \"test:edge -- --run\"","test:edge":"vitest -c vitest.edge.config.js"}`, "vitest.edge.config.js", "test:edge"},
		{"concurrently npm:pattern, through npx", `{"test":"npx -y concurrently -n a,b \"npm:test:*\"","test:node":"vitest -c vitest.node.config.js"}`, "vitest.node.config.js", "test:node"},
		{"concurrently, a quoted npm run", `{"test":"concurrently \"eslint .\" \"pnpm run test:edge\"","test:edge":"vitest -c vitest.edge.config.js"}`, "vitest.edge.config.js", "test:edge"},
		{"concurrently, a quoted vitest", `{"test":"concurrently \"vitest -c cfg/unit.config.ts\" \"tsc -w\""}`, "cfg/unit.config.ts", "test"},
		{"node --run, nr", `{"test":"node --run test:a","test:a":"nr test:b","test:b":"vitest -c vitest.node.config.js"}`, "vitest.node.config.js", "test:b"},
		{"no config named", `{"test":"vitest run","test:node":"vitest --config vitest.node.config.js"}`, "", ""},
		{"a file not in the package", `{"test":"vitest --config ../vitest.node.config.js"}`, "", ""},
		{"a missing file, then one that exists", `{"test":"vitest -c missing.config.ts && vitest -c vitest.node.config.js"}`, "vitest.node.config.js", "test"},
		{"a cycle", `{"test":"npm run a","a":"npm test"}`, "", ""},
		{"no test script", `{"test:node":"vitest --config vitest.node.config.js"}`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			for f, body := range map[string]string{
				"package.json":          `{"name":"p","scripts":` + tc.scripts + `}`,
				"vitest.node.config.js": "export default {};\n", "vitest.edge.config.js": "export default {};\n", "cfg/unit.config.ts": "export default {};\n",
			} {
				os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
				if err := os.WriteFile(filepath.Join(root, f), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, from := ScriptConfig(root)
			if f != tc.wantFile || from != tc.wantFrom {
				t.Errorf("ScriptConfig = %q from %q, want %q from %q", f, from, tc.wantFile, tc.wantFrom)
			}
		})
	}
}

// TestConfigError reads vitest's stderr for a config it could not load:
// the file, vitest's message (not a stack frame), and a fix naming the
// configs the scripts name; other failures are not config errors.
func TestConfigError(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"scripts":{"test":"vitest","test:node":"vitest --config vitest.node.config.js"}}`), 0o644)
	os.WriteFile(filepath.Join(root, "vitest.node.config.js"), []byte("export default {};\n"), 0o644)
	real, _ := filepath.EvalSymlinks(root)
	stderr := "failed to load config from " + real + "/vitest.config.js\n\n⎯⎯⎯ Collect Error ⎯⎯⎯\nError: config must export or return an object.\n    at loadConfigFromFile (file:///x/vite/dist/node/chunks/node.js:37982:34)\n    at async CAC.run (file:///x/cac.js:1:1)\n"
	e := configError(root, "", stderr)
	if e == nil || e.File != "vitest.config.js" || e.Message != "config must export or return an object." {
		t.Fatalf("configError = %+v", e)
	}
	msg := e.Error()
	for _, want := range []string{`"config must export or return an object."`, "--config vitest.node.config.js (the test:node script of package.json names it)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%s\nwants %q", msg, want)
		}
	}
	if strings.Contains(msg, "CAC.run") {
		t.Errorf("a stack frame in %s", msg)
	}
	thrown := "failed to load config from " + real + "/vitest.node.config.js\nTypeError: Cannot read properties of undefined (reading 'API_KEY')\n    at file:///x.mjs:2:7\n"
	if e := configError(root, "vitest.node.config.js", thrown); e == nil || e.Message != "Cannot read properties of undefined (reading 'API_KEY')" || strings.Contains(e.Error(), "--config vitest.node.config.js (") {
		t.Errorf("configError = %+v", e)
	}
	if e := configError(root, "", "Error: Cannot find module 'vitest'\n"); e != nil {
		t.Errorf("not a config error: %+v", e)
	}
}
