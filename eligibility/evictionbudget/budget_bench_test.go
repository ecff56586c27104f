package evictionbudget_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"

	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
)

var sinkDecision eligibility.Decision

// BenchmarkEvictionBudgetCheck checks a full record (Max entries, all in
// the window) at Max 10 and 100, beside a naive baseline that parses the
// record into a slice and counts.
func BenchmarkEvictionBudgetCheck(b *testing.B) {
	for _, n := range []int{10, 100} {
		budget := evictionbudget.Budget{Max: n, Window: 24 * time.Hour}
		ts := make([]time.Time, n)
		for i := range ts {
			ts[i] = np0.Add(time.Duration(i) * time.Minute)
		}
		rec := evictionbudget.FormatRecord(ts)
		now := np0.Add(time.Duration(n) * time.Minute)
		b.Run(fmt.Sprintf("n=%d/Check", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkDecision = budget.Check(rec, now)
			}
		})
		b.Run(fmt.Sprintf("n=%d/naive", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parsed, _ := evictionbudget.ParseRecord(rec)
				count := 0
				for _, t := range parsed {
					if now.Before(t.Add(budget.Window)) {
						count++
					}
				}
				sinkDecision = eligibility.Decision{Allowed: count < budget.Max}
			}
		})
	}
}
