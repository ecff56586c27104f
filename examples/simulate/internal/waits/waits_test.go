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
		tb.Add(0, 500, int64(i%30), Done)
	}
	tb.Add(0, 8000, 158760, Done) // 44.1 h
	tb.Add(0, 8000, 110160, Done) // 30.6 h
	tb.Add(1, 1000, 50, Done)
	tb.Add(1, 1000, 7200, Waiting) // still waiting after 2 h
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
	if be.Max != stats.AtLeast(7200) || be.Censored != 1 || be.Waiting != 1 || be.KM95 != stats.AtLeast(7200) || be.P50 != stats.Exact(50) {
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

// A job unfinished but running at the end is unfinished (its wait is a
// lower bound) and not waiting; the text says so in separate columns.
func TestRunningIsNotWaiting(t *testing.T) {
	tb := New([]string{"LS"})
	tb.Add(0, 1000, 60, Done)
	tb.Add(0, 1000, 3600, Running)
	tb.Add(0, 8000, 7200, Waiting)
	cs := tb.Summary()
	ls := cs[0]
	if ls.Censored != 2 || ls.Waiting != 1 {
		t.Errorf("class: unfinished %d, waiting %d; want 2 and 1", ls.Censored, ls.Waiting)
	}
	one, eight := ls.BySize[0], ls.BySize[1]
	if one.Censored != 1 || one.Waiting != 0 || eight.Censored != 1 || eight.Waiting != 1 {
		t.Errorf("by size: %+v", ls.BySize)
	}
	var b strings.Builder
	WriteText(&b, "p", cs, func(s float64) string { return strconv.FormatFloat(s, 'f', 0, 64) + "s" })
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[0], "unfinished  waiting") {
		t.Errorf("header %q lacks the unfinished and waiting columns", lines[0])
	}
	if f := strings.Fields(lines[2]); len(f) < 4 || f[0] != "1" || f[2] != "1" || f[3] != "0" {
		t.Errorf("1-GPU row %q: want 1 job, 1 unfinished, 0 waiting", lines[2])
	}
}
