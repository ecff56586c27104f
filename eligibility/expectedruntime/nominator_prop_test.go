package expectedruntime_test

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// elNaiveNominate is the oracle: the nominator's rules written as plainly as
// possible, with the time rules in their "not before" form.
func elNaiveNominate(j *eligibility.Job, now time.Time, r *runtime.Resolver, a runtime.Action) (eligibility.Reason, time.Time) {
	var zero time.Time
	if !j.Running {
		return expectedruntime.ReasonNotRunning, zero
	}
	if !j.Preemptible {
		return expectedruntime.ReasonNotPreemptible, zero
	}
	s, ok := j.Annotations[expectedruntime.AnnotationExpectedRuntime]
	if !ok {
		return expectedruntime.ReasonNotConfigured, zero
	}
	exp, err := runtime.ParseDuration(s)
	if err != nil || exp <= 0 {
		return expectedruntime.ReasonInvalidDuration, zero
	}
	if j.Start.IsZero() {
		return eligibility.ReasonMissingStart, zero
	}
	if j.Start.After(now) {
		return eligibility.ReasonClockSkew, j.Start
	}
	if !(now.Equal(j.Start.Add(exp)) || now.After(j.Start.Add(exp))) {
		return expectedruntime.ReasonNotExceeded, j.Start.Add(exp)
	}
	if s, ok := j.Annotations[eligibility.AnnotationRequeueNotBefore]; ok {
		nb, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return expectedruntime.ReasonInvalidNotBefore, zero
		}
		if nb.After(now) {
			return eligibility.ReasonCooldown, nb
		}
	}
	if r != nil {
		d := r.Resolve(a, j.Queue, j.Queue).Duration
		if d > 0 && j.Start.Add(d).After(now) {
			return eligibility.ReasonMinRuntimeProtected, j.Start.Add(d)
		}
	}
	if s, ok := j.Annotations[expectedruntime.AnnotationLastCheckpoint]; ok {
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return expectedruntime.ReasonInvalidLastCheckpoint, zero
		}
	}
	return eligibility.Reason("nominated"), zero
}

func TestNominatorMatchesNaiveOracle(t *testing.T) {
	tree, r := elSetup(t, runtime.MethodLCA, 0, 20*time.Minute,
		elQueue{Name: "a", Preempt: "45m"},
		elQueue{Name: "b", Parent: "a", Preempt: "0s"},
		elQueue{Name: "c"},
	)
	queues := []queuetree.ID{elID(t, tree, "a"), elID(t, tree, "b"), elID(t, tree, "c"), queuetree.None}
	expValues := []string{"1h", "90m", "2h30m", "1d", "0s", "0", "-1h", "", "bad", "1h2", "45m"}
	delayValues := []string{"10m", "0s", "nope"}
	rapid.Check(t, func(rt *rapid.T) {
		nJobs := rapid.IntRange(0, 30).Draw(rt, "jobs")
		jobs := make([]eligibility.Job, nJobs)
		for i := range jobs {
			j := eligibility.Job{
				ID:          fmt.Sprintf("j%d", i),
				Queue:       rapid.SampledFrom(queues).Draw(rt, "queue"),
				Running:     rapid.IntRange(0, 9).Draw(rt, "running") > 0,
				Preemptible: rapid.IntRange(0, 9).Draw(rt, "preemptible") > 0,
			}
			if rapid.IntRange(0, 9).Draw(rt, "hasStart") > 0 {
				j.Start = elMin(rapid.IntRange(-60, 300).Draw(rt, "start"))
			}
			if rapid.Bool().Draw(rt, "hasAnnotations") {
				j.Annotations = map[string]string{}
				if rapid.IntRange(0, 4).Draw(rt, "opted") > 0 {
					j.Annotations[expectedruntime.AnnotationExpectedRuntime] = rapid.SampledFrom(expValues).Draw(rt, "expected")
				}
				switch rapid.IntRange(0, 3).Draw(rt, "nbKind") {
				case 1:
					j.Annotations[eligibility.AnnotationRequeueNotBefore] = elRFC(elMin(rapid.IntRange(0, 400).Draw(rt, "nb")))
				case 2:
					j.Annotations[eligibility.AnnotationRequeueNotBefore] = "garbage"
				}
				switch rapid.IntRange(0, 3).Draw(rt, "cpKind") {
				case 1:
					j.Annotations[expectedruntime.AnnotationLastCheckpoint] = elRFC(elMin(rapid.IntRange(-60, 400).Draw(rt, "cp")))
				case 2:
					j.Annotations[expectedruntime.AnnotationLastCheckpoint] = "garbage"
				}
				if rapid.Bool().Draw(rt, "hasDelay") {
					j.Annotations[expectedruntime.AnnotationRequeueDelay] = rapid.SampledFrom(delayValues).Draw(rt, "delay")
				}
			}
			jobs[i] = j
		}
		now := elMin(rapid.IntRange(0, 400).Draw(rt, "now"))
		n := expectedruntime.Nominator{MinRuntimeAction: runtime.Action(rapid.IntRange(0, 1).Draw(rt, "action"))}
		if rapid.Bool().Draw(rt, "withResolver") {
			n.Resolver = r
		}
		var counter counter
		n.Observer = &counter
		res := n.Nominate(jobs, now)

		// Exactly one outcome per job, in input order.
		outcome := make([]eligibility.Reason, nJobs)
		until := make([]time.Time, nJobs)
		last := -1
		for _, nom := range res.Nominations {
			if nom.Index <= last || outcome[nom.Index] != eligibility.Reason("") {
				rt.Fatalf("nomination %+v out of order or duplicated", nom)
			}
			last = nom.Index
			outcome[nom.Index] = eligibility.Reason("nominated")
		}
		last = -1
		for _, s := range res.Skips {
			var idx int // the job's IDs are "j0", "j1", …
			if _, err := fmt.Sscanf(s.Job, "j%d", &idx); err != nil || s.Source != "expectedruntime" {
				rt.Fatalf("skip %+v: not a job's", s)
			}
			if idx <= last || outcome[idx] != eligibility.Reason("") || erSilent(s.Reason) {
				rt.Fatalf("skip %+v out of order, duplicated or silent", s)
			}
			last = idx
			outcome[idx], until[idx] = s.Reason, s.Until
		}
		silent := 0
		var wake time.Time
		for i := range jobs {
			wantReason, wantUntil := elNaiveNominate(&jobs[i], now, n.Resolver, n.MinRuntimeAction)
			got := outcome[i]
			if erSilent(wantReason) {
				silent++
				if got != eligibility.Reason("") {
					rt.Fatalf("job %d: got %v, oracle says silent %v", i, got, wantReason)
				}
			} else if got != wantReason || !until[i].Equal(wantUntil) {
				rt.Fatalf("job %d (%+v) at %v: got %v until %v, oracle %v until %v", i, jobs[i], now, got, until[i], wantReason, wantUntil)
			}
			if !wantUntil.IsZero() && (wake.IsZero() || wantUntil.Before(wake)) {
				wake = wantUntil
			}
		}
		if res.Silent != silent || !res.Wake.Equal(wake) {
			rt.Fatalf("Silent = %d, Wake = %v; oracle %d, %v", res.Silent, res.Wake, silent, wake)
		}
		// Every nominated job satisfies every rule.
		for _, nom := range res.Nominations {
			j := &jobs[nom.Index]
			exp, err := runtime.ParseDuration(j.Annotations[expectedruntime.AnnotationExpectedRuntime])
			if !j.Running || !j.Preemptible || err != nil || exp <= 0 || j.Start.IsZero() || now.Sub(j.Start) < exp ||
				nom.Expected != exp || nom.Overrun != now.Sub(j.Start)-exp || nom.Overrun < 0 || nom.NotBefore.After(now) || nom.ID != j.ID {
				rt.Fatalf("nominated job breaks a rule: %+v for %+v", nom, *j)
			}
			// The checkpoint as written when at or before now, else zero.
			var cp time.Time
			if s, ok := j.Annotations[expectedruntime.AnnotationLastCheckpoint]; ok {
				if t, _ := time.Parse(time.RFC3339, s); !t.After(now) {
					cp = t
				}
			}
			if !nom.LastCheckpoint.Equal(cp) {
				rt.Fatalf("LastCheckpoint %v, oracle %v, for %+v", nom.LastCheckpoint, cp, *j)
			}
		}
		// The observer saw exactly the reported outcomes.
		var skipped uint64
		for _, rs := range []eligibility.Reason{expectedruntime.ReasonNotRunning, expectedruntime.ReasonNotPreemptible,
			expectedruntime.ReasonInvalidDuration, eligibility.ReasonMissingStart, eligibility.ReasonClockSkew,
			expectedruntime.ReasonInvalidNotBefore, eligibility.ReasonCooldown, eligibility.ReasonMinRuntimeProtected,
			expectedruntime.ReasonInvalidLastCheckpoint} {
			skipped += counter.Count("expectedruntime", rs)
		}
		if counter.Count("expectedruntime", eligibility.Reason("nominated")) != uint64(len(res.Nominations)) || skipped != uint64(len(res.Skips)) {
			rt.Fatalf("counter disagrees with the result")
		}
	})
}

// FuzzRequeueAnnotations feeds arbitrary annotation values (and keys) to the
// parser and the nominator: they must never panic and must stay consistent.
func FuzzRequeueAnnotations(f *testing.F) {
	f.Add("2h", "10m", "2025-01-15T10:30:00Z", "2025-01-15T10:20:00Z", "", 30)
	f.Add("1d", "", "2025-01-15T10:30:00.123456789+02:00", "2025-01-15T12:20:00.5+02:00", "x", 600)
	f.Add("0s", "-1m", "garbage", "garbage", "kai.scheduler/expected-runtime", 0)
	f.Add("1h2", "1w", "2025-13-45T99:99:99Z", "", "kai.scheduler/requeue-not-before", 10000)
	f.Add("9999999999h", "1.5d", "", "9999-12-31T23:59:59Z", "", -5)
	f.Add("1h", "", "2025-01-15T10:00:00Z", "2025-01-15T11:30:00Z", "kai.scheduler/last-checkpoint-time", 90)
	f.Fuzz(func(t *testing.T, exp, delay, nb, cp, extraKey string, nowMin int) {
		ann := map[string]string{
			expectedruntime.AnnotationExpectedRuntime: exp,
			expectedruntime.AnnotationRequeueDelay:    delay,
			eligibility.AnnotationRequeueNotBefore:    nb,
			expectedruntime.AnnotationLastCheckpoint:  cp,
			extraKey:                                  exp + nb,
		}
		a := erParse(ann)
		if !a.HasExpected || !a.HasDelay || !a.HasNotBefore || !a.HasLastCheckpoint {
			t.Fatalf("presence lost: %+v", a)
		}
		if (a.ExpectedErr == nil) != (a.Expected > 0) {
			t.Fatalf("expected %v with err %v", a.Expected, a.ExpectedErr)
		}
		if a.Delay < 0 || (a.DelayErr != nil && a.Delay != 0) || (a.NotBeforeErr != nil && !a.NotBefore.IsZero()) ||
			(a.LastCheckpointErr != nil && !a.LastCheckpoint.IsZero()) {
			t.Fatalf("inconsistent: %+v", a)
		}
		for _, ts := range []time.Time{a.NotBefore, a.LastCheckpoint} {
			if !ts.IsZero() && ts.Location() != time.UTC {
				t.Fatalf("not in UTC: %v", ts)
			}
		}
		now := elMin(nowMin)
		j := eligibility.Job{ID: "f", Running: true, Preemptible: true, Start: elT0, Annotations: ann}
		o := (&expectedruntime.Nominator{}).Evaluate(&j, now)
		if !validLabel(o.Reason) || o.Reason == eligibility.Reason("") {
			t.Fatalf("invalid reason %v", o.Reason)
		}
		if o.Allowed && (o.Nomination.Expected != a.Expected || o.Nomination.Overrun < 0 || o.Nomination.HasRequeueDelay != (a.DelayErr == nil)) {
			t.Fatalf("nomination %+v disagrees with Parse %+v", o.Nomination, a)
		}
		if o.Allowed && (a.LastCheckpointErr != nil || o.Nomination.LastCheckpoint.After(now) ||
			!o.Nomination.LastCheckpoint.IsZero() && !o.Nomination.LastCheckpoint.Equal(a.LastCheckpoint) ||
			o.Nomination.LastCheckpoint.IsZero() && !a.LastCheckpoint.IsZero() && !a.LastCheckpoint.After(now)) {
			t.Fatalf("nomination's LastCheckpoint %v disagrees with Parse %+v at %v", o.Nomination.LastCheckpoint, a, now)
		}
		if !o.Allowed && o.Skip.Reason == expectedruntime.ReasonInvalidDuration && a.ExpectedErr == nil {
			t.Fatalf("invalid_duration for a valid expected-runtime %q", exp)
		}
		if !o.Allowed && o.Skip.Reason == expectedruntime.ReasonInvalidLastCheckpoint && a.LastCheckpointErr == nil {
			t.Fatalf("invalid_last_checkpoint for a valid last-checkpoint-time %q", cp)
		}
	})
}
