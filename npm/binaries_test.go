package npm

import (
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The platforms TestCrossBuilds packs by default: the two it can run here
// and a macOS one, whose load commands are the part no Mac checks here.
// ORACLE_NPM_PLATFORMS=all packs all eight (a platform's first build
// compiles tree-sitter's C parser and zig's C library for it: minutes each,
// bench/npmpack.md), or a list; ORACLE_NPM_PACKS=DIR checks what an earlier
// `scripts/npm-pack --out DIR` made instead of packing (every platform:
// `bash scripts/npm-pack` then ORACLE_NPM_PACKS=dist/npm, which the test
// command does not do).
var fastPlatforms = []string{"linux-x64", "linux-x64-musl", "darwin-arm64"}

var allPlatforms = []string{"darwin-x64", "darwin-arm64", "linux-x64", "linux-arm64", "linux-x64-musl", "linux-arm64-musl", "win32-x64", "win32-arm64"}

// packsRoot holds what the package's tests share (TestMain removes it).
var packsRoot string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "oracle-npm-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	packsRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// packed is scripts/npm-pack's output for fastPlatforms, made once for
// TestCrossBuilds and TestNpmInstallWithoutGo (each packed its own, the two
// linux-x64 builds twice).
var packed struct {
	once     sync.Once
	dir, log string
	err      error
}

// fastPacks packs fastPlatforms once (scripts/npm-pack --out) and returns
// the output directory and npm-pack's output; the tests only read it.
func fastPacks(t *testing.T, repo string) (string, []byte) {
	t.Helper()
	packed.once.Do(func() {
		packed.dir = filepath.Join(packsRoot, "packs")
		log, err := runNpmPack(repo, fastPlatforms, packed.dir)
		packed.log, packed.err = string(log), err
	})
	if packed.err != nil {
		t.Fatalf("scripts/npm-pack: %v\n%s", packed.err, packed.log)
	}
	return packed.dir, []byte(packed.log)
}

// npmPack runs scripts/npm-pack for platforms into out and returns its
// output.
func npmPack(t *testing.T, repo string, platforms []string, out string) []byte {
	t.Helper()
	log, err := runNpmPack(repo, platforms, out)
	if err != nil {
		t.Fatalf("scripts/npm-pack: %v\n%s", err, log)
	}
	return log
}

func runNpmPack(repo string, platforms []string, out string) ([]byte, error) {
	return exec.Command("bash", filepath.Join(repo, "scripts", "npm-pack"), "--platforms", strings.Join(platforms, ","), "--out", out).CombinedOutput()
}

// TestCrossBuilds runs scripts/npm-pack for the platforms above and checks
// each binary as its platform's loader would see it: the format and the
// architecture (debug/elf, debug/macho, debug/pe); glibc builds dynamic with
// no symbol newer than glibc 2.17, musl builds static; Mach-O executables
// that load libSystem, CoreFoundation and Security and carry a code
// signature; Windows console executables that import only system DLLs;
// and what file(1) says of it, where file is installed. The ones this
// machine runs (linux-x64, glibc and musl, on a linux-x64 machine) run
// here: --version, stamped. Each package's os, cpu and libc select it, and
// the main package lists exactly the platforms packed; the release assets
// are the same binaries with their checksums.
func TestCrossBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles oracle")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("scripts/npm-pack's zig comes from the npm registry for linux-x64")
	}
	platforms := fastPlatforms
	switch env := os.Getenv("ORACLE_NPM_PLATFORMS"); env {
	case "":
	case "all":
		platforms = allPlatforms
	default:
		platforms = strings.Split(env, ",")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := os.Getenv("ORACLE_NPM_PACKS")
	if out != "" {
		// The output of an earlier `bash scripts/npm-pack --out DIR`, checked as it is.
		dirs, _ := filepath.Glob(filepath.Join(out, "cli-*"))
		platforms = nil
		for _, d := range dirs {
			platforms = append(platforms, strings.TrimPrefix(filepath.Base(d), "cli-"))
		}
		if len(platforms) == 0 {
			t.Fatalf("ORACLE_NPM_PACKS=%s holds no cli-* package", out)
		}
	} else {
		var log []byte
		if slices.Equal(platforms, fastPlatforms) {
			out, log = fastPacks(t, repo) // TestNpmInstallWithoutGo installs them
		} else {
			out = filepath.Join(t.TempDir(), "packs")
			log = npmPack(t, repo, platforms, out)
		}
		if !regexp.MustCompile(`== npm-pack: C compiler: zig \S+ \(`).Match(log) {
			t.Errorf("npm-pack does not say which zig it used:\n%s", log)
		}
	}
	version := mainVersion(t, repo)
	sums, _ := os.ReadFile(filepath.Join(out, "release", "SHA256SUMS"))

	for _, p := range platforms {
		t.Run(p, func(t *testing.T) {
			exe := "oracle"
			if strings.HasPrefix(p, "win32-") {
				exe = "oracle.exe"
			}
			bin := filepath.Join(out, "cli-"+p, "bin", exe)
			checkBinary(t, p, bin)
			checkFile(t, p, bin)

			// The package's selectors.
			var meta struct {
				Name          string
				OS, CPU, Libc []string
				Files         []string
			}
			readJSON(t, filepath.Join(out, "cli-"+p, "package.json"), &meta)
			goos, rest, _ := strings.Cut(p, "-")
			cpu, libc, _ := strings.Cut(rest, "-")
			if goos == "linux" && libc == "" {
				libc = "glibc"
			}
			if meta.Name != "@oracle-ts/cli-"+p || !slices.Equal(meta.OS, []string{goos}) || !slices.Equal(meta.CPU, []string{cpu}) ||
				!slices.Equal(meta.Libc, nonEmpty(libc)) || !slices.Equal(meta.Files, []string{"bin/" + exe}) {
				t.Errorf("package.json of %s: %+v", p, meta)
			}
			asset := "oracle-" + p + strings.TrimPrefix(exe, "oracle")
			a, err := readFile(filepath.Join(out, "release", asset))
			b, _ := readFile(bin)
			if err != nil || a != b || !strings.Contains(string(sums), "  "+asset+"\n") {
				t.Errorf("release asset %s: %v, same binary %v, in SHA256SUMS %v", asset, err, a == b, strings.Contains(string(sums), asset))
			}

			if runsHere(p) {
				got, err := exec.Command(bin, "--version").CombinedOutput()
				if err != nil || !strings.HasPrefix(string(got), "oracle "+version+" (commit ") {
					t.Errorf("%s --version: %v\n%s", p, err, got)
				}
			} else {
				t.Logf("%s: not run (this machine is %s/%s)", p, runtime.GOOS, runtime.GOARCH)
			}
		})
	}

	var main struct{ OptionalDependencies map[string]string }
	readJSON(t, filepath.Join(out, "cli", "package.json"), &main)
	want := map[string]string{}
	for _, p := range platforms {
		want["@oracle-ts/cli-"+p] = version
	}
	if fmt.Sprint(main.OptionalDependencies) != fmt.Sprint(want) {
		t.Errorf("the main package's optionalDependencies %v, want %v", main.OptionalDependencies, want)
	}
}

// TestNpmPackFailedBuilds runs scripts/npm-pack with a zig that compiles
// nothing: both platforms build side by side and fail; each is named with
// the end of its log (logs/P.log), the script exits 1 after both ended and
// packs nothing. ($ORACLE_CACHE is the test's: the compiler commands it
// writes are not the real ones.)
func TestNpmPackFailedBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build for two platforms")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	zig := filepath.Join(tmp, "zig")
	script := "#!/bin/sh\nif [ \"$1\" = version ]; then echo 0.11.0; exit 0; fi\necho \"fake zig: will not compile $*\" >&2\nexit 1\n"
	if err := os.WriteFile(zig, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	cmd := exec.Command("bash", filepath.Join(repo, "scripts", "npm-pack"), "--platforms", "linux-x64,darwin-arm64", "--jobs", "2", "--out", out)
	cmd.Env = append(os.Environ(), "ZIG="+zig, "ORACLE_CACHE="+filepath.Join(tmp, "cache"))
	log, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("scripts/npm-pack with a failing zig: %v, want exit 1\n%s", err, log)
	}
	for _, want := range []string{
		"== npm-pack: building linux-x64 darwin-arm64, 2 at a time",
		"== npm-pack: FAILED: linux-x64 (exit 1 after ", "== npm-pack: FAILED: darwin-arm64 (exit 1 after ",
		"fake zig: will not compile", "2 of 2 builds failed; nothing was packed",
		"  linux-x64: see " + out + "/logs/linux-x64.log", "  darwin-arm64: see " + out + "/logs/darwin-arm64.log",
	} {
		if !strings.Contains(string(log), want) {
			t.Errorf("npm-pack's output lacks %q:\n%s", want, log)
		}
	}
	for _, p := range []string{"linux-x64", "darwin-arm64"} {
		if b, err := os.ReadFile(filepath.Join(out, "logs", p+".log")); err != nil || !strings.Contains(string(b), "fake zig: will not compile") {
			t.Errorf("logs/%s.log: %v\n%s", p, err, b)
		}
	}
	if tgz, _ := filepath.Glob(filepath.Join(out, "*.tgz")); len(tgz) != 0 {
		t.Errorf("packed %v after a failed build", tgz)
	}
}

// checkBinary checks platform p's binary at path as its loader would.
func checkBinary(t *testing.T, p, path string) {
	t.Helper()
	switch {
	case strings.HasPrefix(p, "linux-"):
		f, err := elf.Open(path)
		if err != nil {
			t.Fatalf("%s: not ELF: %v", p, err)
		}
		defer f.Close()
		machine, interp := elf.EM_X86_64, "/lib64/ld-linux-x86-64.so.2"
		if strings.HasPrefix(p, "linux-arm64") {
			machine, interp = elf.EM_AARCH64, "/lib/ld-linux-aarch64.so.1"
		}
		if f.Machine != machine || f.Class != elf.ELFCLASS64 || f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
			t.Errorf("%s: %v %v %v, want a 64-bit %v executable", p, f.Class, f.Machine, f.Type, machine)
		}
		libs, _ := f.ImportedLibraries()
		gotInterp := ""
		for _, prog := range f.Progs {
			if prog.Type == elf.PT_INTERP {
				b := make([]byte, prog.Filesz)
				prog.ReadAt(b, 0)
				gotInterp = strings.TrimRight(string(b), "\x00")
			}
		}
		if strings.HasSuffix(p, "-musl") {
			if gotInterp != "" || len(libs) != 0 {
				t.Errorf("%s: want a static executable; interpreter %q, libraries %v", p, gotInterp, libs)
			}
			return
		}
		if gotInterp != interp || !slices.Contains(libs, "libc.so.6") {
			t.Errorf("%s: interpreter %q (want %s), libraries %v (want libc.so.6)", p, gotInterp, interp, libs)
		}
		// Runs on glibc 2.17 and later: no symbol of a newer version.
		syms, _ := f.ImportedSymbols()
		for _, s := range syms {
			if v, ok := strings.CutPrefix(s.Version, "GLIBC_"); ok && newerThan(v, "2.17") {
				t.Errorf("%s: %s needs GLIBC_%s (want 2.17 at most)", p, s.Name, v)
			}
		}
	case strings.HasPrefix(p, "darwin-"):
		f, err := macho.Open(path)
		if err != nil {
			t.Fatalf("%s: not Mach-O: %v", p, err)
		}
		defer f.Close()
		cpu := macho.CpuAmd64
		if p == "darwin-arm64" {
			cpu = macho.CpuArm64
		}
		if f.Cpu != cpu || f.Type != macho.TypeExec {
			t.Errorf("%s: %v %v, want a %v executable", p, f.Cpu, f.Type, cpu)
		}
		libs, _ := f.ImportedLibraries()
		for _, want := range []string{"/usr/lib/libSystem.B.dylib",
			"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation",
			"/System/Library/Frameworks/Security.framework/Versions/A/Security"} {
			if !slices.Contains(libs, want) {
				t.Errorf("%s: does not load %s (loads %v)", p, want, libs)
			}
		}
		// LC_MAIN (an entry point dyld calls) and, on arm64, LC_CODE_SIGNATURE
		// (arm64 macOS kills an unsigned executable; zig's linker signs ad
		// hoc; Intel Macs run unsigned ones, and zig signs none for x86_64).
		const lcMain, lcCodeSignature = 0x80000028, 0x1d
		var cmds []uint32
		for _, l := range f.Loads {
			cmds = append(cmds, f.ByteOrder.Uint32(l.Raw()[0:4]))
		}
		if !slices.Contains(cmds, lcMain) || p == "darwin-arm64" && !slices.Contains(cmds, lcCodeSignature) {
			t.Errorf("%s: load commands %#x: want LC_MAIN and (arm64) LC_CODE_SIGNATURE", p, cmds)
		}
	case strings.HasPrefix(p, "win32-"):
		f, err := pe.Open(path)
		if err != nil {
			t.Fatalf("%s: not PE: %v", p, err)
		}
		defer f.Close()
		machine := uint16(pe.IMAGE_FILE_MACHINE_AMD64)
		if p == "win32-arm64" {
			machine = pe.IMAGE_FILE_MACHINE_ARM64
		}
		oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
		if f.Machine != machine || !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI || f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0 {
			t.Errorf("%s: machine %#x, header %T, want a 64-bit console executable for %#x", p, f.Machine, f.OptionalHeader, machine)
		}
		// Only Windows' own DLLs: no MinGW runtime to ship beside it.
		// (debug/pe's ImportedLibraries is not implemented: the DLLs are
		// the part after the colon of each imported symbol.)
		syms, _ := f.ImportedSymbols()
		var libs []string
		for _, s := range syms {
			if _, dll, ok := strings.Cut(s, ":"); ok && !slices.Contains(libs, dll) {
				libs = append(libs, dll)
			}
		}
		if !slices.ContainsFunc(libs, func(l string) bool { return strings.EqualFold(l, "kernel32.dll") }) {
			t.Errorf("%s: imports %v, not kernel32.dll", p, libs)
		}
		for _, l := range libs {
			if l := strings.ToLower(l); strings.Contains(l, "libgcc") || strings.Contains(l, "winpthread") || strings.Contains(l, "libstdc++") || strings.Contains(l, "libc++") {
				t.Errorf("%s: imports %s, which Windows does not have", p, l)
			}
		}
	default:
		t.Fatalf("unknown platform %s", p)
	}
}

// runsHere says whether this machine runs platform p's binaries: Linux of
// the same CPU (a glibc build also needs glibc's loader).
func runsHere(p string) bool {
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if runtime.GOOS != "linux" || cpu == "" {
		return false
	}
	switch p {
	case "linux-" + cpu + "-musl":
		return true
	case "linux-" + cpu:
		_, err := os.Stat(map[string]string{"x64": "/lib64/ld-linux-x86-64.so.2", "arm64": "/lib/ld-linux-aarch64.so.1"}[cpu])
		return err == nil
	}
	return false
}

// fileSays is what file(1) says of each platform's binary (each part).
var fileSays = map[string][]string{
	"linux-x64":        {"ELF 64-bit LSB", "x86-64", "dynamically linked", "interpreter /lib64/ld-linux-x86-64.so.2"},
	"linux-arm64":      {"ELF 64-bit LSB", "ARM aarch64", "dynamically linked", "interpreter /lib/ld-linux-aarch64.so.1"},
	"linux-x64-musl":   {"ELF 64-bit LSB", "x86-64", "statically linked"},
	"linux-arm64-musl": {"ELF 64-bit LSB", "ARM aarch64", "statically linked"},
	"darwin-x64":       {"Mach-O 64-bit x86_64 executable"},
	"darwin-arm64":     {"Mach-O 64-bit arm64 executable"},
	"win32-x64":        {"PE32+ executable (console) x86-64"},
	"win32-arm64":      {"PE32+ executable (console) Aarch64"},
}

// checkFile checks what file(1) says of platform p's binary at path, where
// file is installed (checkBinary checks the same headers without it).
func checkFile(t *testing.T, p, path string) {
	t.Helper()
	if _, err := exec.LookPath("file"); err != nil {
		t.Logf("%s: file(1) is not installed: its check is not done", p)
		return
	}
	out, err := exec.Command("file", "-b", path).Output()
	if err != nil {
		t.Fatalf("file %s: %v", path, err)
	}
	for _, want := range fileSays[p] {
		if !strings.Contains(string(out), want) {
			t.Errorf("%s: file says %q, want %q in it", p, strings.TrimSpace(string(out)), want)
		}
	}
}

// newerThan says whether version a (like "2.34") is newer than b.
func newerThan(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// mainVersion is the version written in cmd/oracle/main.go.
func mainVersion(t *testing.T, repo string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "cmd", "oracle", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\tversion *= *"(.*)"$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no version in cmd/oracle/main.go")
	}
	return string(m[1])
}
