package manifest

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// FuncRef names a function: "<file>#<name>" in the manifest.
type FuncRef struct {
	// File is the repository-relative path of the module, cleaned and with
	// forward slashes ("./src/x.ts" is "src/x.ts").
	File string
	// Name is the function's name; "default" for an anonymous default export;
	// "Class.method" for a method (Class and Member are then set).
	Name string
	// Class and Member split a method's name ("default" is the class of
	// `export default class`).
	Class, Member string
	// Pos is the position of the function value in the manifest.
	Pos Pos
}

// String renders f as "<file>#<name>", the form used in the JSON documents.
func (f FuncRef) String() string { return f.File + "#" + f.Name }

// FlagPath is the flag of an operation: a parameter of the function and an
// optional chain of properties ("opts.skip" is parameter "opts", property
// "skip"). Whether the parameter exists is checked against the code later.
type FlagPath struct {
	Param string
	Props []string
	// Text is the flag as written ("opts.skip").
	Text string
	Pos  Pos
}

// Leaf returns the last segment of the flag ("skip" for "opts.skip", the
// parameter when there are no properties).
func (f FlagPath) Leaf() string {
	if len(f.Props) > 0 {
		return f.Props[len(f.Props)-1]
	}
	return f.Param
}

// CallRef names a call site in the function body, the way the code writes
// the callee: "enrichItem", "audit.write".
type CallRef struct {
	// Call is the callee as written: identifiers joined by ".".
	Call string
	// Occurrence selects the Nth call site of Call in the body (1-based), or
	// is 0 when not given: then Call must have exactly one call site.
	Occurrence int
	// Pos is the position of the entry (the string, or the {call: ...}
	// mapping) in the manifest.
	Pos Pos
}

// String renders c as written in messages: "enrichItem", or
// "enrichItem (occurrence 2)".
func (c CallRef) String() string {
	if c.Occurrence > 0 {
		return fmt.Sprintf("%s (occurrence %d)", c.Call, c.Occurrence)
	}
	return c.Call
}

// sameSite reports whether a and b name the same call site when both are
// valid: the same callee and occurrence, an omitted occurrence standing for
// the only (so the first) call site.
func (c CallRef) sameSite(o CallRef) bool {
	return c.Call == o.Call && max(c.Occurrence, 1) == max(o.Occurrence, 1)
}

// isIdentifier reports whether s is a JavaScript identifier (IdentifierName:
// reserved words are not rejected here, the code is the judge of those).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if i == 0 && !isIDStart(r) || i > 0 && !isIDPart(r) {
			return false
		}
	}
	return true
}

func isIDStart(r rune) bool {
	return r == '$' || r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isIDPart(r rune) bool {
	return isIDStart(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) ||
		r == '\u200c' || r == '\u200d'
}

// reservedWords are the words JavaScript (strict mode, as in modules)
// never allows as a binding name: a parameter, a function or the first
// identifier of a callee cannot be one (properties can: opts.default).
var reservedWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`await break case catch class const continue debugger default delete do
		else enum export extends false finally for function if implements import in instanceof interface let
		new null package private protected public return static super switch this throw true try typeof var
		void while with yield`) {
		reservedWords[w] = true
	}
}

// identifierChain splits s ("a.b.c") into identifiers, or returns nil.
func identifierChain(s string) []string {
	parts := strings.Split(s, ".")
	for _, p := range parts {
		if !isIdentifier(p) {
			return nil
		}
	}
	return parts
}

// tsExtensions are the extensions of the TypeScript modules a manifest or
// oracle.yaml may name.
var tsExtensions = []string{".ts", ".tsx", ".mts", ".cts"}

// checkRepoPath validates a repository-relative path to a TypeScript
// module and returns it cleaned, or an explanation of what is wrong.
func checkRepoPath(p string) (string, string) {
	switch {
	case p == "":
		return "", "expected a repository-relative path to a TypeScript file, got an empty path"
	case strings.Contains(p, `\`):
		return "", fmt.Sprintf("expected '/' as the path separator, got %s", quote(p))
	case strings.HasPrefix(p, "/") || hasDrive(p):
		return "", fmt.Sprintf("expected a path relative to the repository root, got the absolute path %s", quote(p))
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Sprintf("path %s leaves the repository; paths are relative to the repository root", quote(p))
	}
	if strings.HasSuffix(clean, ".d.ts") || strings.HasSuffix(clean, ".d.mts") || strings.HasSuffix(clean, ".d.cts") {
		return "", fmt.Sprintf("expected a TypeScript source file, got the declaration file %s", quote(p))
	}
	ext := path.Ext(clean)
	if !slices.Contains(tsExtensions, ext) {
		return "", fmt.Sprintf("expected a TypeScript file (%s), got %s", strings.Join(tsExtensions, ", "), quote(p))
	}
	if strings.Trim(strings.TrimSuffix(path.Base(clean), ext), ".") == "" {
		return "", fmt.Sprintf("expected a TypeScript file with a name, got %s", quote(p))
	}
	return clean, ""
}

// hasDrive reports whether p starts with a Windows drive ("C:").
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

const funcExpected = "expected <repo-relative file>#<function name or Class.method>, e.g. src/server/index.ts#processItem"

// parseFuncRef parses "<file>#<name>".
func parseFuncRef(s string) (FuncRef, string) {
	i := strings.LastIndexByte(s, '#')
	if i < 0 {
		return FuncRef{}, fmt.Sprintf("%s, got %s", funcExpected, quote(s))
	}
	file, name := s[:i], s[i+1:]
	if strings.Contains(file, "#") {
		return FuncRef{}, fmt.Sprintf("%s, got %s (more than one '#')", funcExpected, quote(s))
	}
	if file == "" {
		return FuncRef{}, fmt.Sprintf("%s, got %s (no file before '#')", funcExpected, quote(s))
	}
	clean, msg := checkRepoPath(file)
	if msg != "" {
		return FuncRef{}, msg
	}
	if cls, member, ok := strings.Cut(name, "."); ok {
		// Class.method: a class name (or "default"), then the member's name
		// (any identifier name: a method may be called `delete`).
		if !isIdentifier(cls) || reservedWords[cls] && cls != "default" || !isIdentifier(member) {
			return FuncRef{}, fmt.Sprintf("expected a function name or Class.method after '#', got %s", quote(name))
		}
		return FuncRef{File: clean, Name: name, Class: cls, Member: member}, ""
	}
	if !isIdentifier(name) {
		return FuncRef{}, fmt.Sprintf("expected a function name (a JavaScript identifier) or Class.method after '#', got %s", quote(name))
	}
	if reservedWords[name] && name != "default" {
		return FuncRef{}, fmt.Sprintf("expected a function name after '#', got the reserved word %s", quote(name))
	}
	return FuncRef{File: clean, Name: name}, ""
}

const flagExpected = "expected <parameter>[.<property>...], e.g. opts.skip"

// parseFlag parses "<parameter>[.<property>...]".
func parseFlag(s string) (FlagPath, string) {
	parts := identifierChain(s)
	if parts == nil {
		return FlagPath{}, fmt.Sprintf("%s, got %s", flagExpected, quote(s))
	}
	if reservedWords[parts[0]] {
		return FlagPath{}, fmt.Sprintf("%s, got %s (%s is a reserved word, not a parameter name)", flagExpected, quote(s), parts[0])
	}
	return FlagPath{Param: parts[0], Props: parts[1:], Text: s}, ""
}

const callExpected = `expected a string like "enrichItem" or {call: enrichItem, occurrence: 2}`

// parseCallText checks a callee as written ("enrichItem", "audit.write").
func parseCallText(s string) string {
	// this.#field.m(): a #private member after `this` is written as the code
	// writes it (gen then says why no spy can reach it).
	if rest, ok := strings.CutPrefix(s, "this."); ok {
		s2 := strings.ReplaceAll(rest, "#", "")
		if identifierChain(s2) != nil && !strings.Contains(rest, "##") {
			return ""
		}
	}
	if parts := identifierChain(s); parts != nil {
		if first := parts[0]; reservedWords[first] && first != "this" && first != "super" {
			return fmt.Sprintf(`expected a call as written at the call site, like "enrichItem" or "audit.write", got %s (%s is a reserved word)`, quote(s), first)
		}
		return ""
	}
	msg := fmt.Sprintf(`expected a call as written at the call site, like "enrichItem" or "audit.write", got %s`, quote(s))
	if strings.HasSuffix(strings.TrimSpace(s), ")") {
		msg += " (name the callee without parentheses or arguments)"
	}
	return msg
}

// Names of ids, tickets and fixtures. They become parts of file names, so
// they are restricted to characters safe in paths on every platform.
var (
	idPattern      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	fixturePattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)
)

const (
	idExpected      = "expected an id matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. skip-enrichment"
	ticketExpected  = "expected a ticket key matching [A-Za-z0-9][A-Za-z0-9._-]*, e.g. PROJ-142"
	fixtureExpected = "expected a fixture name matching [A-Za-z0-9_][A-Za-z0-9._-]*, e.g. pipeline"
)

// parseOccurrence parses the occurrence of a {call, occurrence} entry.
func parseOccurrence(tag, value string) (int, bool) {
	if tag != "!!int" {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(value, "_", ""), 0, 64)
	if err != nil || n < 1 || n > 1<<31-1 {
		return 0, false
	}
	return int(n), true
}

// IsReservedWord reports a word JavaScript modules (strict mode) never
// allow as a binding name.
func IsReservedWord(w string) bool { return reservedWords[w] }
