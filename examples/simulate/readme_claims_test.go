package main

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/longtest"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
)

// TestREADMEClaims checks the README's claims that a list of figures
// cannot: a range must span the figures it summarises, a job said to wait
// must be waiting, a heading's "most" must be a majority. Each is derived
// from the JSON of one replay of the trace as recorded (-runs 1: the
// per-queue, per-size and fragmentation tables are views of one run) and
// the README must say what it gives. It replays the whole trace under
// every policy: a long test.
func TestREADMEClaims(t *testing.T) {
	longtest.Skip(t)
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(data)), " ") // line breaks as spaces
	rep := runJSON(t, "-runs", "1")
	lo, hi := beHeldOverFair(rep)
	if want := fmt.Sprintf("(held/fair %.2f–%.2f, `-queues`)", lo, hi); !strings.Contains(readme, want) {
		t.Errorf("README lacks the BE queues' held/fair range %q", want)
	}
	for _, r := range rep.Results {
		if r.Policy == "priority" {
			share := r.Fragmentation.StrandedShare
			if share < 0.5 && strings.Contains(readme, "**Most idle GPU capacity is stranded") {
				t.Errorf("README says most idle GPU capacity is stranded; priority strands %.0f%%", 100*share)
			}
		}
		if r.Policy != "requeue" {
			continue
		}
		for _, c := range r.Waits {
			if c.Class != "LS" {
				continue
			}
			for _, s := range c.BySize {
				if s.Size != "1" {
					continue
				}
				running := s.Censored - s.Waiting
				if running == 1 && s.Waiting == 0 && !strings.Contains(readme, "one 1-GPU LS job is unfinished at the end (running,") {
					t.Errorf("README does not say requeue's one unfinished 1-GPU LS job is running (waits %+v)", s)
				}
				if s.Waiting == 0 && strings.Contains(readme, "LS job still waits at the end") {
					t.Error("README says a 1-GPU LS job still waits at the end under requeue; none does")
				}
			}
		}
	}
}

// beHeldOverFair returns the lowest and highest held/fair ratio of the BE
// team queues over every policy of rep.
func beHeldOverFair(rep report.Report) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range rep.Results {
		for _, q := range r.Queues {
			if strings.HasPrefix(q.Queue, "be-") {
				lo, hi = math.Min(lo, q.ShareOfFair), math.Max(hi, q.ShareOfFair)
			}
		}
	}
	return lo, hi
}
