package preemptordelay_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"

	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
)

var sinkDecision eligibility.Decision

func BenchmarkPreemptorDelayCheck(b *testing.B) {
	d := preemptordelay.Delay{Delay: 30 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		sinkDecision = d.Check(np0, time.Time{}, nil, np0.Add(time.Second))
	}
}
