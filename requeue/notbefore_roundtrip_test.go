package requeue_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// TestNotBeforeRoundTrip: the not-before gate the engine writes on commit,
// stored under the one key and read back by the expected-runtime
// nominator, keeps the job in cooldown until exactly the instant the
// engine reported, whatever the time zone and sub-second part of the
// pass's now. One codec serves both sides.
func TestNotBeforeRoundTrip(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("CET", 3600), time.FixedZone("X", -(9*3600 + 30*60))}
	for _, loc := range zones {
		for _, frac := range []time.Duration{0, time.Nanosecond, 250 * time.Millisecond, time.Second - time.Nanosecond} {
			now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC).Add(frac).In(loc)
			job := eligibility.Job{ID: "train", Queue: queuetree.Root, Priority: 1, Preemptible: true, Running: true,
				Start: now.Add(-2 * time.Hour), Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h"}}
			var nom expectedruntime.Nominator
			res := nom.Nominate([]eligibility.Job{job}, now)
			if len(res.Nominations) != 1 {
				t.Fatalf("%v: not nominated: %+v", now, res)
			}

			c, err := cluster.New([]cluster.Node{{Name: "n", Capacity: cluster.Resources{GPU: 8}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range []cluster.Job{{ID: "train", Tasks: []cluster.Resources{{GPU: 8}}}, {ID: "serve", Tasks: []cluster.Resources{{GPU: 8}}}} {
				if err := c.AddJob(nil, j); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.Place(nil, "train"); err != nil {
				t.Fatal(err)
			}
			e, err := requeue.NewEngine(requeue.EngineConfig{DefaultDelay: 30 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			in := requeue.EngineInput{Nominated: res.Nominations}
			in.Contenders = []requeue.Contender{{ID: "serve", Priority: 9, Queue: queuetree.Root, Queued: now.Add(-time.Minute)}}
			out, err := e.Run(now, in, c)
			if err != nil || len(out.Outcomes) != 1 || out.Outcomes[0].Kind != requeue.OutcomeCommitted {
				t.Fatalf("%v: pass = %+v, %v", now, out.Outcomes, err)
			}
			o := out.Outcomes[0]

			job.Annotations[eligibility.AnnotationRequeueNotBefore] = o.Annotation
			back := nom.Evaluate(&job, o.NotBefore.Add(-time.Nanosecond))
			if back.Allowed || back.Reason != eligibility.ReasonCooldown || !back.Until.Equal(o.NotBefore) {
				t.Errorf("%v: just before the gate: %+v, want cooldown until %v", now, back.Decision, o.NotBefore)
			}
			if at := nom.Evaluate(&job, o.NotBefore); !at.Allowed {
				t.Errorf("%v: at the gate %v: %+v, want nominated", now, o.NotBefore, at.Decision)
			}
			if want := now.Add(30 * time.Minute); o.NotBefore.Before(want) || o.NotBefore.Sub(want) >= time.Second || o.NotBefore.Location() != time.UTC {
				t.Errorf("%v: NotBefore %v, want the second at or after %v, in UTC", now, o.NotBefore, want)
			}
		}
	}
}
