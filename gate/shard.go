package gate

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/operators"
)

var shardRe = regexp.MustCompile(`^([1-9][0-9]{0,5})/([1-9][0-9]{0,5})$`)

// Shard is one shard of a gate (cargo-mutants' shard.rs): K of N, 1-based;
// the zero Shard (or N 1) is the whole gate. Only the mutants whose index
// in the deterministic order of all of them is K-1 modulo N run, so the N
// shards together run every mutant exactly once (Merge joins them).
type Shard struct{ K, N int }

// ParseShard reads --shard K/N: two decimal numbers and nothing else (no
// sign, space or trailing text: "1/2abc" is refused), 1 <= K <= N.
func ParseShard(s string) (Shard, error) {
	m := shardRe.FindStringSubmatch(s)
	if m != nil {
		k, _ := strconv.Atoi(m[1])
		n, _ := strconv.Atoi(m[2])
		if k <= n {
			return Shard{K: k, N: n}, nil
		}
	}
	return Shard{}, fmt.Errorf("--shard %q: want K/N with 1 <= K <= N, e.g. 2/4", s)
}

// Split reports whether the gate is split (N > 1).
func (s Shard) Split() bool { return s.N > 1 }

// Selects reports whether the mutant at index i (0-based) in the order of
// all of the gate's mutants is the shard's.
func (s Shard) Selects(i int) bool { return !s.Split() || i%s.N == s.K-1 }

// String is "K/N", "" for the whole gate.
func (s Shard) String() string {
	if !s.Split() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Identity is what makes the shards of one gate one set (SPEC "Scale out"):
// the repository (its first commit), the base and head commits and whether
// the working tree was the change, the scope, the operator set (a digest of
// its names and the arid loggers), oracle's version, the threshold, what
// --untested makes of an untested target (skip or fail), the number of
// mutants of all the shards together and a digest of their list, and
// which shard this is, K of N. oracle gate merge joins only a set whose
// identities agree but for K, with every K from 1 to N once.
type Identity struct {
	Repository string  `json:"repository"`
	Base       string  `json:"base"`
	Head       string  `json:"head"`
	Worktree   bool    `json:"worktree"`
	Files      string  `json:"files,omitempty"` // --files: a digest of the list (no commits then)
	Scope      string  `json:"scope"`
	Operators  string  `json:"operators"`
	Version    string  `json:"version"`
	Threshold  float64 `json:"threshold"`
	Untested   string  `json:"untested"` // --untested: skip or fail
	Mutants    int     `json:"mutants"`  // all shards together
	Digest     string  `json:"digest"`   // of the list of all the mutants
	K          int     `json:"k"`
	N          int     `json:"n"`
}

// operatorNames is the gate's operator set, for the identity: those that
// visit nodes (Revert, which the gate asks apart, was never named in it;
// its mutants are in the digest).
var operatorNames = func() []edit.Operator {
	var out []edit.Operator
	for _, o := range operators.Of(operators.GateVerb) {
		if o.Reverts == nil {
			out = append(out, o.Name)
		}
	}
	return out
}()

// mutantList digests the list of every mutant of a gate, in the
// deterministic order the shards split.
type mutantList struct {
	h hash.Hash
	n int
}

func newMutantList() *mutantList { return &mutantList{h: sha256.New()} }

// add records the index-th mutant (0-based) of target.
func (l *mutantList) add(target string, index int, m edit.Mutant) {
	fmt.Fprintf(l.h, "%s#%d\x00%s\x00%s\x00%d:%d\x00%s\x00", target, index+1, m.Path, m.Operator, m.Original.Start.Offset, m.Original.End.Offset, m.Replacement)
	l.n++
}

// identity is the run's identity, its mutants listed in l.
func identity(ch change.Change, opts Options, scope string, l *mutantList) *Identity {
	id := &Identity{Scope: scope, Version: opts.Version, Threshold: opts.Threshold, Untested: cmp.Or(opts.Untested, UntestedSkip), Mutants: l.n,
		Digest: hex.EncodeToString(l.h.Sum(nil)), K: max(opts.Shard.K, 1), N: max(opts.Shard.N, 1)}
	if o := opts.Origin; o != nil {
		id.Repository, id.Base, id.Head, id.Worktree = o.Repository, o.Base, o.Head, o.Worktree
	} else {
		h := sha256.New()
		for _, f := range ch.Files() {
			fmt.Fprintf(h, "%s\x00", f)
		}
		id.Files = hex.EncodeToString(h.Sum(nil))
	}
	h := sha256.New()
	for _, op := range operatorNames {
		fmt.Fprintf(h, "%s\x00", op)
	}
	loggers := append([]string(nil), opts.Arid.Loggers...)
	sort.Strings(loggers)
	fmt.Fprintf(h, "loggers\x00%s", strings.Join(loggers, "\x00"))
	id.Operators = hex.EncodeToString(h.Sum(nil))[:16]
	return id
}
