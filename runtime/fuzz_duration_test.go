package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/runtime"
)

// FuzzParseDuration checks that ParseDuration never panics, never returns a
// negative duration, that every accepted string round-trips through
// FormatDuration to the same value and a canonical form, and that it agrees
// with time.ParseDuration on the forms both accept.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{
		"0", "0s", "+0", "-0", "", "5", "1h2", "1h-30m", "-5m", "5x",
		"1w2d3h", "2d4h30m", "1.5d", ".5h", "5.h", "1.000000001s",
		"15250w1d23h47m16s854ms775us807ns", "9223372036854775808ns",
		"2562047h47m16.854775807s", "0.3333333333333333333333333333333d",
		"1\u00b5s", "1\u03bcs", "1h 30m", "1..5h", "++1h",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := runtime.ParseDuration(s)
		if err != nil {
			if d != 0 {
				t.Fatalf("ParseDuration(%q) = %v with error %v; want 0", s, d, err)
			}
			if !strings.HasPrefix(err.Error(), "runtime: invalid duration ") {
				t.Fatalf("ParseDuration(%q) error %q lacks the package prefix", s, err)
			}
		} else {
			if d < 0 {
				t.Fatalf("ParseDuration(%q) = %v; negative", s, d)
			}
			canon := runtime.FormatDuration(d)
			back, err := runtime.ParseDuration(canon)
			if err != nil || back != d {
				t.Fatalf("ParseDuration(%q) = %d, but ParseDuration(FormatDuration = %q) = %d, %v", s, int64(d), canon, int64(back), err)
			}
			if again := runtime.FormatDuration(back); again != canon {
				t.Fatalf("FormatDuration not canonical: %q then %q", canon, again)
			}
		}

		// Differential check against the standard library on its grammar.
		if strings.ContainsAny(s, "-dw") {
			return
		}
		want, stdErr := time.ParseDuration(s)
		if stdErr != nil {
			// The standard library rejects only what we reject too, except
			// near the overflow limit where its float arithmetic differs.
			if err == nil && d < maxDuration-time.Second {
				t.Fatalf("ParseDuration(%q) = %v but time.ParseDuration rejects it: %v", s, d, stdErr)
			}
			return
		}
		if err != nil {
			if want < maxDuration-time.Second {
				t.Fatalf("ParseDuration(%q): %v; time.ParseDuration accepts it as %v", s, err, want)
			}
			return
		}
		diff := d - want
		if diff < 0 {
			diff = -diff
		}
		if diff != 0 && (!strings.Contains(s, ".") || diff > 1) {
			t.Fatalf("ParseDuration(%q) = %d; time.ParseDuration says %d", s, int64(d), int64(want))
		}
	})
}

const maxDuration = time.Duration(1<<63 - 1)
