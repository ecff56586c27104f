package eligibility_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// FuzzDecisions feeds one job with arbitrary times, durations, counts,
// subgroup names and annotation values to every decision of the package.
// None may panic, and each keeps its promise about Until: zero, or an
// instant after now (the earliest at which the answer may change).
func FuzzDecisions(f *testing.F) {
	f.Add(int64(1736935200), int64(time.Minute), int64(10*time.Minute), int64(4*time.Hour), int32(1), int32(3), "w", "w", true, "1h", "2025-01-15T10:30:00Z")
	f.Add(int64(0), int64(-1), int64(0), int64(0), int32(0), int32(0), "", "", false, "", "")
	f.Add(int64(-62135596800), int64(1<<62), int64(1<<63-1), int64(-1<<63), int32(-1<<31), int32(1<<31-1), "a", "b", true, "2562047h", "9999-12-31T23:59:59Z")
	f.Add(int64(1<<62), int64(-1<<62), int64(time.Second), int64(time.Minute), int32(2), int32(2), "x\x00", "x\x00", true, "1w2d", "garbage")
	f.Fuzz(func(t *testing.T, startSec, nowOff, d, m int64, minAvail, active int32, sgName, taskSg string, taskActive bool, expected, notBefore string) {
		var start time.Time
		if startSec != 0 {
			start = time.Unix(startSec, 0).UTC()
		}
		now := start.Add(time.Duration(nowOff))
		tree, err := queuetree.New([]queuetree.Queue{{Name: "q"}})
		if err != nil {
			t.Fatal(err)
		}
		dur := max(time.Duration(d), 0)
		r, err := runtime.NewResolver(tree, runtime.Config{DefaultPreempt: dur, DefaultReclaim: dur})
		if err != nil {
			t.Skip(err) // a config the resolver refuses is not this package's input
		}
		q, _ := tree.Lookup("q")
		job := &eligibility.Job{
			ID: "j", Queue: q, Running: true, Preemptible: true, Start: start,
			Subgroups: []eligibility.Subgroup{{Name: sgName, MinAvailable: minAvail, Active: active}},
			Annotations: map[string]string{
				expectedruntime.AnnotationExpectedRuntime: expected,
				eligibility.AnnotationRequeueNotBefore:    notBefore,
			},
		}
		future := func(what string, until time.Time) {
			if !until.IsZero() && !until.After(now) {
				t.Fatalf("%s: Until %v is not after now %v", what, until, now)
			}
		}

		for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
			fd := (&minruntime.Filter{Resolver: r}).Check(a, q, job, now)
			// Until is set exactly while the victim is protected: a denial,
			// or an elastic victim deferred to the scenario validator.
			if protected := !fd.Allowed || fd.Reason == minruntime.ReasonElasticDeferred; protected == fd.Until.IsZero() {
				t.Fatalf("filter %v: %v", a, fd.Decision)
			}
			future("filter", fd.Until)

			var v minruntime.Validator
			v.Resolver = r
			sd, err := v.Validate(a, q, []minruntime.Victim{{Job: job, Tasks: []minruntime.Task{{Subgroup: taskSg, Active: taskActive}}}}, now)
			switch {
			case err != nil && (!strings.Contains(err.Error(), "names unknown subgroup") || taskSg == sgName):
				t.Fatalf("validator: unexpected error %v", err)
			case err == nil && taskSg != sgName && fd.Until.After(now):
				// Only a protected victim's subgroups are read.
				t.Fatalf("validator: no error for unknown subgroup %q of a protected victim", taskSg)
			case err == nil && !sd.Allowed && sd.Until.IsZero(),
				err == nil && sd.Reason == minruntime.ReasonBelowMinAvailable && sd.Remaining >= int64(sd.MinAvailable),
				err == nil && sd.Reason == minruntime.ReasonInvalidCounts && sd.Remaining >= 0 && sd.MinAvailable >= 0 && active >= 0,
				err == nil && !sd.Allowed && sd.Reason != minruntime.ReasonBelowMinAvailable && sd.Reason != minruntime.ReasonInvalidCounts:
				t.Fatalf("validator: inconsistent rejection %+v", sd)
			}
			future("validator", sd.Until)

			n := expectedruntime.Nominator{Resolver: r, MinRuntimeAction: a}
			o := n.Evaluate(job, now)
			if !validLabel(o.Reason) || o.Reason == eligibility.Reason("") {
				t.Fatalf("nominator: reason %v", o.Reason)
			}
			if o.Allowed && (o.Nomination.Overrun < 0 || o.Nomination.NotBefore.After(now)) {
				t.Fatalf("nominator: %+v", o.Nomination)
			}
			if !o.Allowed {
				future("nominator "+o.Skip.Reason.String(), o.Skip.Until)
			}
		}

		cfg := timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: explicit(time.Duration(m))}
		pd := cfg.Classify(timebased.Request{Priority: 1, Timestamp: now.Add(-time.Duration(d))},
			timebased.Candidate{ID: "c", Priority: 1, Reserved: start}, now)
		future("classify "+string(pd.Reason), pd.Until)
	})
}
