package waits

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

func TestSizeBucketBoundaries(t *testing.T) {
	for _, tc := range []struct {
		milli int64
		want  string
	}{{0, "0"}, {1, "<1"}, {999, "<1"}, {1000, "1"}, {1001, "2"}, {2000, "2"}, {2001, "3-4"}, {4000, "3-4"}, {4001, "5-8"}, {8000, "5-8"}, {8001, ">8"}} {
		if got := Sizes[SizeBucket(tc.milli)]; got != tc.want {
			t.Errorf("SizeBucket(%d) = %s, want %s", tc.milli, got, tc.want)
		}
	}
}

// The case from the trace review: many small LS jobs wait seconds, two
// 8-GPU LS jobs wait days. The class p99 hides them; max and the size
// table show them.
func TestStarvationIsVisible(t *testing.T) {
	tb := New([]string{"LS", "BE"})
	for i := range 300 {
		tb.Add(0, 500, int64(i%30), false)
	}
	tb.Add(0, 8000, 158760, false) // 44.1 h
	tb.Add(0, 8000, 110160, false) // 30.6 h
	tb.Add(1, 1000, 50, false)
	tb.Add(1, 1000, 7200, true) // still waiting after 2 h
	cs := tb.Summary()
	if len(cs) != 2 {
		t.Fatalf("classes = %d", len(cs))
	}
	ls := cs[0]
	if ls.P99 != stats.Exact(29) || ls.Max != stats.Exact(158760) || ls.Jobs != 302 {
		t.Errorf("LS: p99 %+v max %+v jobs %d", ls.P99, ls.Max, ls.Jobs)
	}
	if len(ls.BySize) != 2 || ls.BySize[1].Size != "5-8" || ls.BySize[1].P95 != stats.Exact(158760) || ls.BySize[1].Jobs != 2 {
		t.Errorf("LS by size: %+v", ls.BySize)
	}
	be := cs[1]
	if be.Max != stats.AtLeast(7200) || be.Censored != 1 || be.KM95 != stats.AtLeast(7200) || be.P50 != stats.Exact(50) {
		t.Errorf("BE: %+v", be)
	}
	var b strings.Builder
	WriteText(&b, "priority", cs, func(s float64) string { return strconv.FormatFloat(s, 'f', 0, 64) + "s" })
	for _, want := range []string{"158760s", "≥7200s", "5-8", "28s (KM 28s)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	js, _ := json.Marshal(cs)
	if !strings.Contains(string(js), `"max_s":{"value":7200,"lower_bound":true}`) {
		t.Errorf("JSON: %s", js)
	}
	if len(New([]string{"x"}).Summary()) != 0 {
		t.Error("an empty class must be left out")
	}
}
