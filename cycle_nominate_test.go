package tenure_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
)

// TestCycleNominate: Cycle.Nominate answers as the Policy's nominator does
// at the cycle's instant, and Wake is the earliest Until after that
// instant among the answers (a nomination has none): a job short of its
// expected runtime wakes the cycle when it reaches it, one in cooldown
// when the cooldown ends, one not yet started at its start.
func TestCycleNominate(t *testing.T) {
	p, err := tenure.New(tenure.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(rt *rapid.T) {
		c := p.BeginAt(t0)
		var want time.Time
		for i := range rapid.IntRange(1, 6).Draw(rt, "jobs") {
			j := eligibility.Job{ID: string(rune('a' + i)), Queue: queuetree.Root, Priority: 1, Preemptible: true, Running: true,
				Start:       t0.Add(time.Duration(rapid.IntRange(-180, 10).Draw(rt, "start")) * time.Minute),
				Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h"}}
			if rapid.Bool().Draw(rt, "cooldown") {
				nb := t0.Add(time.Duration(rapid.IntRange(-30, 30).Draw(rt, "notBefore")) * time.Minute)
				j.Annotations[eligibility.AnnotationRequeueNotBefore] = eligibility.FormatNotBefore(nb)
			}
			got := c.Nominate(&j)
			n := p.Nominator()
			if diff := cmp.Diff(n.Evaluate(&j, t0), got, cmpopts.EquateErrors()); diff != "" {
				rt.Fatalf("job %s: Nominate differs from the nominator (-want +got):\n%s", j.ID, diff)
			}
			if got.Allowed && !got.Until.IsZero() {
				rt.Fatalf("job %s: a nomination with an Until: %+v", j.ID, got)
			}
			if got.Until.After(t0) {
				want = eligibility.Earliest(want, got.Until)
			}
			if !c.Wake().Equal(want) {
				rt.Fatalf("after job %s (%v until %v): Wake = %v, want %v", j.ID, got.Reason, got.Until, c.Wake(), want)
			}
		}
	})
}

// TestCycleNominateReports: Cycle.Nominate reports to Config.Observer
// what Cycle.Requeue reports for the same job: a nomination, or a
// non-silent skip; a silent outcome (not yet past its expected runtime)
// is not reported.
func TestCycleNominateReports(t *testing.T) {
	for _, start := range []time.Duration{-2 * time.Hour, -10 * time.Minute} {
		var viaNominate, viaRequeue counter
		job := eligibility.Job{ID: "j", Queue: queuetree.Root, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(start),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "1h", expectedruntime.AnnotationRequeueDelay: "bad"}}
		p, err := tenure.New(tenure.Config{Observer: &viaNominate})
		if err != nil {
			t.Fatal(err)
		}
		p.BeginAt(t0).Nominate(&job)
		q, err := tenure.New(tenure.Config{Observer: &viaRequeue})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := q.BeginAt(t0).Requeue(tenure.RequeueInput{Running: []eligibility.Job{job}}, protectedCluster(t)); err != nil {
			t.Fatal(err)
		}
		got, want := nominatorSamples(&viaNominate), nominatorSamples(&viaRequeue)
		if diff := cmp.Diff(want, got); diff != "" || (start < -time.Hour) != (len(got) == 1) {
			t.Errorf("start %v: Nominate reported (-Requeue +Nominate):\n%s\ngot %v", start, diff, got)
		}
	}
}

// nominatorSamples returns c's samples from the expected-runtime nominator.
func nominatorSamples(c *counter) []sample {
	var out []sample
	for _, s := range c.Samples() {
		if s.Source == "expectedruntime" {
			out = append(out, s)
		}
	}
	return out
}

// TestRequeueNominated: a nomination that Cycle.Nominate made, handed to
// Requeue in RequeueInput.Nominated (Running empty), carries its victim's
// data and is committed as the same job handed in Running is.
func TestRequeueNominated(t *testing.T) {
	p, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := p.QueueID("q")
	v := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
		Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
	hi := []requeue.Contender{{ID: "hi", Priority: 9, Queue: q}}
	for _, byNominate := range []bool{true, false} {
		c := p.BeginAt(t0)
		in := tenure.RequeueInput{Contenders: hi}
		if byNominate {
			o := c.Nominate(&v)
			if !o.Allowed {
				t.Fatalf("Nominate: %+v", o)
			}
			in.Nominated = []expectedruntime.Nomination{o.Nomination}
		} else {
			in.Running = []eligibility.Job{v}
		}
		res, err := c.Requeue(in, protectedCluster(t))
		if err != nil || len(res.Engine.Outcomes) != 1 || res.Engine.Outcomes[0].Kind != requeue.OutcomeCommitted {
			t.Errorf("by Nominate %v: %v, %+v; want v committed", byNominate, err, res.Engine.Outcomes)
		}
	}
}
