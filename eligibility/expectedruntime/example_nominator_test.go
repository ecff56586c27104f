package expectedruntime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

// ExampleNominator runs KAI-Scheduler's expected-runtime nominator over a
// few jobs, with an observer that counts the decisions by reason, as a
// metrics adapter would.
func ExampleNominator() {
	now := time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	job := func(id string, ranFor time.Duration, ann ...string) eligibility.Job {
		j := eligibility.Job{ID: id, Running: true, Preemptible: true, Start: now.Add(-ranFor), Annotations: map[string]string{}}
		for i := 0; i+1 < len(ann); i += 2 {
			j.Annotations[ann[i]] = ann[i+1]
		}
		return j
	}
	const (
		expected  = expectedruntime.AnnotationExpectedRuntime
		delay     = expectedruntime.AnnotationRequeueDelay
		notBefore = eligibility.AnnotationRequeueNotBefore
	)
	jobs := []eligibility.Job{
		job("training-job/default", 4*time.Hour+10*time.Minute, expected, "4h"),
		job("long-running-job/default", 9*time.Hour, expected, "8h", delay, "30m"),
		job("fresh/default", 1*time.Hour, expected, "2h"),                                      // silent until 13:00
		job("plain/default", 9*time.Hour),                                                      // did not opt in: silent
		job("cooling/default", 5*time.Hour, expected, "1h", notBefore, "2025-01-15T12:20:00Z"), // cooldown
		job("typo/default", 5*time.Hour, expected, "2 hours"),                                  // invalid_duration
	}

	counts := map[eligibility.Reason]int{} // your metric, by source and reason
	n := expectedruntime.Nominator{Observer: eligibility.ObserverFunc(func(e eligibility.Event) { counts[e.Reason]++ })}
	res := n.Nominate(jobs, now)
	for _, nom := range res.Nominations {
		fmt.Printf("nominated %s by %s: overrun %v, delay %v (set: %v)\n", nom.ID, nom.Nominator, nom.Overrun, nom.RequeueDelay, nom.HasRequeueDelay)
	}
	for _, s := range res.Skips {
		fmt.Printf("skipped %s: %s until %s\n", s.Job, s.Reason, elClock(s.Until))
	}
	fmt.Println("silent:", res.Silent, "wake:", elClock(res.Wake))
	fmt.Println("counted:", counts[eligibility.Reason("nominated")], "nominated,", counts[eligibility.ReasonCooldown], "cooldown,",
		counts[expectedruntime.ReasonInvalidDuration], "invalid_duration")
	// Output:
	// nominated training-job/default by expectedruntime: overrun 10m0s, delay 0s (set: false)
	// nominated long-running-job/default by expectedruntime: overrun 1h0m0s, delay 30m0s (set: true)
	// skipped cooling/default: cooldown until 12:20:00
	// skipped typo/default: invalid_duration until -
	// silent: 2 wake: 12:20:00
	// counted: 2 nominated, 1 cooldown, 1 invalid_duration
}

// ExampleNominator_Report evaluates and reports jobs one at a time, as
// tenure.Cycle.Nominate does: nothing is allocated, and the earliest Until
// says when to look again.
func ExampleNominator_Report() {
	start := time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)
	jobs := []eligibility.Job{{
		ID: "j", Running: true, Preemptible: true, Start: start,
		Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "90m"},
	}}
	var n expectedruntime.Nominator
	for _, now := range []time.Time{start.Add(time.Hour), start.Add(90 * time.Minute)} {
		var wake time.Time
		for i := range jobs {
			o := n.Evaluate(&jobs[i], now)
			n.Report(&o)
			wake = eligibility.Earliest(wake, o.Until)
			fmt.Printf("%s: %s %s, wake %s\n", now.Format(time.TimeOnly), o.Reason, jobs[i].ID, elClock(wake))
		}
	}
	// Output:
	// 11:00:00: not_exceeded j, wake 11:30:00
	// 11:30:00: nominated j, wake -
}

// ExampleNominator_Evaluate shows the first failing check deciding.
func ExampleNominator_Evaluate() {
	now := time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	j := eligibility.Job{ID: "j", Running: true, Preemptible: false, Annotations: map[string]string{
		expectedruntime.AnnotationExpectedRuntime: "soon", // also invalid, and no start time either
	}}
	fmt.Println((&expectedruntime.Nominator{}).Evaluate(&j, now).Reason)
	j.Preemptible = true
	fmt.Println((&expectedruntime.Nominator{}).Evaluate(&j, now).Reason)
	j.Annotations[expectedruntime.AnnotationExpectedRuntime] = "1h"
	fmt.Println((&expectedruntime.Nominator{}).Evaluate(&j, now).Reason)
	// Output:
	// not_preemptible
	// invalid_duration
	// missing_start
}
