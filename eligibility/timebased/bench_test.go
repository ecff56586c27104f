package timebased_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

const tbBenchN = 50_000

// tbBenchFixture returns a preemptor, 50,000 running candidates (priorities
// 0..6 around the preemptor's 5, reservations spread over two days) and the
// instant of the decision. With M = 4h about 6/7 of them are preemptible.
func tbBenchFixture() (timebased.Config, timebased.Request, []timebased.Candidate, time.Time) {
	r := rand.New(rand.NewPCG(8522, 1))
	cands := make([]timebased.Candidate, tbBenchN)
	for i := range cands {
		cands[i] = timebased.Candidate{
			ID:       fmt.Sprintf("ns-%d/job-%06d", r.IntN(100), i),
			Priority: int32(r.IntN(7)),
			Reserved: tbT0.Add(time.Duration(r.Int64N(int64(48 * time.Hour)))),
		}
	}
	p := timebased.Request{Priority: 5, Timestamp: tbT0.Add(40 * time.Hour)}
	return tbTimeBased(4 * time.Hour), p, cands, tbT0.Add(48 * time.Hour)
}

var tbSink int

// BenchmarkPreemptionClassify: one decision. Expect 0 allocs/op.
func BenchmarkPreemptionClassify(b *testing.B) {
	cfg, p, cands, now := tbBenchFixture()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tbSink += len(cfg.Classify(p, cands[i%len(cands)], now).Reason)
	}
}

// BenchmarkPreemptionCandidates: classify 50,000 candidates and order the
// preemptible ones (keys computed once), reusing the output slice.
func BenchmarkPreemptionCandidates(b *testing.B) {
	cfg, p, cands, now := tbBenchFixture()
	dst := make([]timebased.Decision, 0, len(cands))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = appendCandidates(dst[:0], cfg, p, cands, now)
	}
	tbSink += len(dst)
}

// BenchmarkPreemptionCandidatesSortFunc is a baseline: classify once, then
// slices.SortFunc with CandidateCompare (keys recomputed per comparison).
func BenchmarkPreemptionCandidatesSortFunc(b *testing.B) {
	cfg, p, cands, now := tbBenchFixture()
	dst := make([]timebased.Decision, 0, len(cands))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = dst[:0]
		for _, c := range cands {
			if d := cfg.Classify(p, c, now); d.Allowed {
				dst = append(dst, d)
			}
		}
		slices.SortFunc(dst, timebased.Compare)
	}
	tbSink += len(dst)
}

// BenchmarkPreemptionCandidatesNaive is the naive baseline: sort.Slice over
// the candidates with a closure that re-classifies both sides in every
// comparison, then keep the preemptible prefix.
func BenchmarkPreemptionCandidatesNaive(b *testing.B) {
	cfg, p, cands, now := tbBenchFixture()
	work := make([]timebased.Candidate, len(cands))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(work, cands)
		sort.Slice(work, func(i, j int) bool {
			return timebased.Compare(cfg.Classify(p, work[i], now), cfg.Classify(p, work[j], now)) < 0
		})
		k := sort.Search(len(work), func(i int) bool { return !cfg.Classify(p, work[i], now).Allowed })
		tbSink += k
	}
}
