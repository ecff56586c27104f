package report

import "testing"

// fmtDur picks its unit after rounding, so no value prints as 60s, 60m or
// 24.0h.
func TestFmtDur(t *testing.T) {
	for _, tc := range []struct {
		sec  float64
		want string
	}{
		{0, "0s"}, {45, "45s"}, {59.4, "59s"}, {59.5, "1m"}, {89, "1m"}, {90, "2m"},
		{3569, "59m"}, {3570, "1.0h"}, {3590, "1.0h"}, {5400, "1.5h"},
		{86219, "23.9h"}, {86220, "1.0d"}, {86400, "1.0d"}, {3.2 * 86400, "3.2d"},
	} {
		if got := fmtDur(tc.sec); got != tc.want {
			t.Errorf("fmtDur(%v) = %q, want %q", tc.sec, got, tc.want)
		}
	}
}
