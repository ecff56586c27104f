package expectedruntime_test

import (
	"fmt"

	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

// elBenchJobs builds n jobs of a realistic mix: 25% not opted in, 25%
// exceeded (half with a requeue-delay), 15% not yet exceeded, 15% in
// cooldown, 5% with an expired not-before, 5% invalid expected-runtime, 5%
// invalid not-before, 5% not running.
func elBenchJobs(n int) []eligibility.Job {
	now := elMin(600)
	jobs := make([]eligibility.Job, n)
	for i := range jobs {
		j := eligibility.Job{ID: fmt.Sprintf("ns/job-%05d", i), Running: true, Preemptible: true,
			Priority: int32(i % 7), Start: elT0.Add(time.Duration(i%60) * time.Second),
			Annotations: map[string]string{"app": "x", "team": "y"}}
		switch k := i % 20; {
		case k < 5: // not opted in
		case k < 10:
			j.Annotations[elKeyExp] = "2h"
			if k%2 == 0 {
				j.Annotations[elKeyDelay] = "10m"
			}
		case k < 13:
			j.Annotations[elKeyExp] = "1d"
		case k < 16:
			j.Annotations[elKeyExp] = "1h30m"
			j.Annotations[elKeyNB] = elRFC(now.Add(time.Hour))
		case k == 16:
			j.Annotations[elKeyExp] = "90m"
			j.Annotations[elKeyNB] = elRFC(now.Add(-time.Hour))
		case k == 17:
			j.Annotations[elKeyExp] = "two hours"
		case k == 18:
			j.Annotations[elKeyExp] = "1h"
			j.Annotations[elKeyNB] = "yesterday"
		default:
			j.Annotations[elKeyExp] = "1h"
			j.Running = false
		}
		jobs[i] = j
	}
	return jobs
}

// BenchmarkNominate50k: Nominate over 50,000 mixed jobs per op; the
// allocations are the two output slices (grown by append) and the errors of
// the invalid annotations.
func BenchmarkNominate50k(b *testing.B) {
	jobs := elBenchJobs(50000)
	n := expectedruntime.Nominator{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := n.Nominate(jobs, elMin(600))
		if len(r.Nominations) == 0 {
			b.Fatal("no nominations")
		}
	}
}

// BenchmarkNominate50kEvaluate: the same one job at a time with Evaluate
// and Report and a counting observer: the only allocations left are the
// invalid annotations' errors.
func BenchmarkNominate50kEvaluate(b *testing.B) {
	jobs := elBenchJobs(50000)
	n := expectedruntime.Nominator{Observer: &counter{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range jobs {
			o := n.Evaluate(&jobs[k], elMin(600))
			n.Report(&o)
		}
	}
}

// BenchmarkNominate50kNaive is the baseline: parse every annotation of every
// job eagerly, then apply the rules.
func BenchmarkNominate50kNaive(b *testing.B) {
	jobs := elBenchJobs(50000)
	now := elMin(600)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var noms []expectedruntime.Nomination
		var skips []eligibility.Event
		for k := range jobs {
			j := &jobs[k]
			a := erParse(j.Annotations)
			var reason eligibility.Reason
			switch {
			case !j.Running:
				reason = expectedruntime.ReasonNotRunning
			case !j.Preemptible:
				reason = expectedruntime.ReasonNotPreemptible
			case !a.HasExpected:
				continue
			case a.ExpectedErr != nil:
				reason = expectedruntime.ReasonInvalidDuration
			case j.Start.IsZero():
				reason = eligibility.ReasonMissingStart
			case now.Before(j.Start):
				reason = eligibility.ReasonClockSkew
			case now.Sub(j.Start) < a.Expected:
				continue
			case a.NotBeforeErr != nil:
				reason = expectedruntime.ReasonInvalidNotBefore
			case a.HasNotBefore && now.Before(a.NotBefore):
				reason = eligibility.ReasonCooldown
			default:
				noms = append(noms, expectedruntime.Nomination{Victim: expectedruntime.Victim{ID: j.ID, RequeueDelay: a.Delay}, Index: k, Overrun: now.Sub(j.Start) - a.Expected})
				continue
			}
			skips = append(skips, eligibility.Event{Source: "expectedruntime", Job: j.ID, Decision: eligibility.Decision{Reason: reason}})
		}
		if len(noms) == 0 || len(skips) == 0 {
			b.Fatal("no nominations or no skips")
		}
	}
}
