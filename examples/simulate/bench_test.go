package main

import (
	"fmt"
	"io"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
)

// BenchmarkSimulate runs each default policy over the synthetic workload at
// two sizes ten times apart (the cluster grows with the jobs, the offered
// load stays 0.9), so the ratio shows how the cost grows: linear is 10×.
// The README's growth table extends it to a million jobs with the CLI.
func BenchmarkSimulate(b *testing.B) {
	for _, jobs := range []int{1000, 10000} {
		o, err := parseFlags([]string{"-synthetic", "-jobs", fmt.Sprint(jobs)}, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		o.resolveDefaults()
		js, nodes, _, err := o.input()
		if err != nil {
			b.Fatal(err)
		}
		w, err := sim.Prepare(js, nodes, o.load())
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range sim.ApplicablePolicies(false) {
			b.Run(fmt.Sprintf("jobs=%d/%s", jobs, p), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := sim.Simulate(w, p, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEmbeddedTrace is one replay of the default run (-runs 1): the
// embedded trace, every policy, one after the other.
func BenchmarkEmbeddedTrace(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := run([]string{"-parallel", "1", "-runs", "1"}, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
