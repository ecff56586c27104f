package main

import (
	"bytes"
	"cmp"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/alloc"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/longtest"
)

// allocationGaps are the policies whose mean at 130% is known to miss the
// paper's by more than a percentage point (see the README's allocation
// section for what was found about why). The test fails when one of them
// comes within a point, so that this list only ever shrinks.
// None is: all six are within a point since ties go by node name, as in
// the paper's simulator.
var allocationGaps = map[alloc.Policy]bool{}

// TestAllocationAgainstPaper runs the paper's 60 runs (six policies,
// seeds 42-51) and compares the mean allocation at 130% with the
// published one: within 1 percentage point, and the policies that match
// in the paper's order. A long test (tens of seconds).
func TestAllocationAgainstPaper(t *testing.T) {
	longtest.Skip(t)
	ref, err := os.ReadFile("testdata/fgd-atc23/allocation_default.csv")
	if err != nil {
		t.Fatal(err)
	}
	paperRows, err := alloc.ReadCSV(bytes.NewReader(ref))
	if err != nil {
		t.Fatal(err)
	}
	o, err := parseFlags([]string{"-allocation", "-seed", "42", "-runs", "10"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	pods, nodes, workload, err := allocationInput(o)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := allocationRuns(o, pods, nodes, workload)
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := alloc.MeanAt(rows, alloc.CurveMax)
	paper, n := alloc.MeanAt(paperRows, alloc.CurveMax)
	var matched []alloc.Policy
	for _, p := range alloc.Policies() {
		if n[p] != 10 {
			t.Fatalf("the reference has %d seeds of %v, want 10", n[p], p)
		}
		gap := ours[p] - paper[p]
		t.Logf("%-15v ours %.2f paper %.2f gap %+.2f", p, ours[p], paper[p], gap)
		switch {
		case math.Abs(gap) <= 1 && allocationGaps[p]:
			t.Errorf("%v is now within a point of the paper (%+.2f): take it off allocationGaps", p, gap)
		case math.Abs(gap) > 1 && !allocationGaps[p]:
			t.Errorf("%v: mean at 130%% %.2f, the paper's %.2f: more than a point apart", p, ours[p], paper[p])
		case math.Abs(gap) <= 1:
			matched = append(matched, p)
		}
	}
	byOurs := slices.Clone(matched)
	slices.SortFunc(byOurs, func(a, b alloc.Policy) int { return cmp.Compare(ours[a], ours[b]) })
	byPaper := slices.Clone(matched)
	slices.SortFunc(byPaper, func(a, b alloc.Policy) int { return cmp.Compare(paper[a], paper[b]) })
	if !slices.Equal(byOurs, byPaper) {
		t.Errorf("ranking of the matching policies: ours %v, the paper's %v", byOurs, byPaper)
	}
}

// The flags of the allocation experiment: what combines and what does not.
func TestAllocationFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"-allocation"}, ""},
		{[]string{"-allocation", "-placement", "frag-gradient,best-fit", "-allocation-out", "x.csv"}, ""},
		{[]string{"-allocation-out", "x.csv"}, "-allocation-out needs -allocation: without it, it changes nothing"},
		{[]string{"-allocation", "-placement", "first-fit"}, "-placement first-fit: a placement of the replay, not of the allocation experiment (random, dot-prod,"},
		{[]string{"-allocation", "-placement", "bogus"}, "want one of random"},
		{[]string{"-allocation", "-placement", ","}, "no policy given"},
		{[]string{"-allocation", "-synthetic"}, "-synthetic needs the replay, not -allocation"},
		{[]string{"-allocation", "-svg", "x.svg"}, "-svg needs the replay, not -allocation"},
		{[]string{"-placement", "random"}, "-placement random: a policy of the allocation experiment only (-allocation); the replay places with one of first-fit, best-fit or frag-gradient"},
		{[]string{"-placement", "dot-prod"}, "-placement dot-prod: a policy of the allocation experiment only"},
		{[]string{"-placement", "gpu-clustering"}, "-placement gpu-clustering: a policy of the allocation experiment only"},
		{[]string{"-placement", "gpu-packing"}, "-placement gpu-packing: a policy of the allocation experiment only"},
		{[]string{"-placement", "best-fit,frag-gradient"}, "-placement best-fit,frag-gradient: a list of policies is for the allocation experiment (-allocation)"},
		{[]string{"-placement", "bogus"}, "is not first-fit, best-fit or frag-gradient"},
		{[]string{"-placement", "frag-gradient"}, ""},
	} {
		_, err := parseFlags(tc.args, &bytes.Buffer{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
}

// A small run end to end: the table on stdout, one CSV row per policy
// and seed in the paper's shape.
func TestAllocationRun(t *testing.T) {
	out := t.TempDir() + "/curves.csv"
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-allocation", "-placement", "best-fit,random", "-seed", "7", "-runs", "2", "-allocation-out", out}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := alloc.ReadCSV(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0].Policy != alloc.BestFit || rows[1].Seed != 8 || rows[2].Policy != alloc.Random || rows[0].TotalGPUs != 6212 {
		t.Errorf("rows %v", rows)
	}
	if !strings.Contains(stdout.String(), "best-fit") || !strings.Contains(stdout.String(), "seeds 7-8") {
		t.Errorf("table:\n%s", stdout.String())
	}
}
