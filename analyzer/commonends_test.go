package analyzer

import (
	"math/rand"
	"strings"
	"testing"
)

// TestCommonEnds: the prefix and suffix compared 64 bytes at a time are
// the byte-by-byte ones, on random pairs with long common ends, the suffix
// never overlapping the prefix ("aa" in "aaa").
func TestCommonEnds(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	part := func() string { return strings.Repeat(string(rune('a'+rng.Intn(2))), rng.Intn(150)) }
	for range 20000 {
		pre, mid1, mid2, post := part(), part(), part(), part()
		a, b := []byte(pre+mid1+post), []byte(pre+mid2+post)
		wp, ws := 0, 0
		for wp < len(a) && wp < len(b) && a[wp] == b[wp] {
			wp++
		}
		for ws < len(a)-wp && ws < len(b)-wp && a[len(a)-1-ws] == b[len(b)-1-ws] {
			ws++
		}
		if p, s := CommonEnds(a, b); p != wp || s != ws {
			t.Fatalf("CommonEnds(%q, %q) = %d, %d; want %d, %d", a, b, p, s, wp, ws)
		}
	}
}
