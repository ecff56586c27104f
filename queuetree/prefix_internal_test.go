package queuetree

import (
	"cmp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestNamePrefixOrdersAsNames: whenever two names' prefixes differ, they
// order the names exactly as a full comparison does (short names, zero
// bytes and bytes above 0x7f included); equal prefixes are only a tie.
func TestNamePrefixOrdersAsNames(t *testing.T) {
	for _, pair := range [][2]string{{"ab", "ab\x00"}, {"x", "x\x00\x01"}, {"abcdefgh", "abcdefgi"}, {"abcdefghZ", "abcdefghA"}, {"\xff", "\x00"}} {
		checkPrefix(t, pair[0], pair[1])
	}
	rapid.Check(t, func(rt *rapid.T) {
		alphabet := rapid.SampledFrom([]byte{0, 1, 'a', 'b', 0x7f, 0x80, 0xff})
		gen := rapid.Custom(func(t *rapid.T) string {
			return string(rapid.SliceOfN(alphabet, 0, 12).Draw(t, "bytes"))
		})
		checkPrefix(rt, gen.Draw(rt, "a"), gen.Draw(rt, "b"))
	})
}

func checkPrefix(t interface{ Fatalf(string, ...any) }, a, b string) {
	pa, pb := namePrefix(a), namePrefix(b)
	if pa != pb && cmp.Compare(pa, pb) != strings.Compare(a, b) {
		t.Fatalf("prefixes of %q and %q order %d, names %d", a, b, cmp.Compare(pa, pb), strings.Compare(a, b))
	}
}
