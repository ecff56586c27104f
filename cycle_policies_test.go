package tenure_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue"
)

// allPolicies is a Config with every time-based policy set.
func allPolicies() tenure.Config {
	return tenure.Config{
		Queues:         []tenure.Queue{{Name: "q"}},
		Preemption:     timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: explicit(time.Hour)},
		Protection:     admitprotect.Protection{FairSharing: explicit(2 * time.Hour), ReclaimWithinCohort: explicit(10 * time.Minute)},
		PreemptorDelay: preemptordelay.Delay{Delay: 30 * time.Second},
		EvictionBudget: evictionbudget.Budget{Max: 1, Window: 3 * time.Hour},
	}
}

// TestCycleWakeCountsEveryPolicy: each policy decided through the Cycle
// gives its Until, and Wake is the earliest of them.
func TestCycleWakeCountsEveryPolicy(t *testing.T) {
	p, err := tenure.New(allPolicies())
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		name      string
		do        func(c *tenure.Cycle) eligibility.Decision
		wantUntil time.Time
	}
	steps := []step{
		{"eviction budget", func(c *tenure.Cycle) eligibility.Decision {
			j := eligibility.Job{Annotations: map[string]string{evictionbudget.Annotation: eligibility.FormatNotBefore(t0.Add(-time.Hour))}}
			return c.CheckEvictionBudget(&j)
		}, t0.Add(2 * time.Hour)},
		{"time-based candidate", func(c *tenure.Cycle) eligibility.Decision {
			req := timebased.Request{Priority: 1, Timestamp: t0.Add(-3 * time.Hour)}
			return c.Classify(req, timebased.Candidate{ID: "x", Priority: 1, Reserved: t0.Add(-30 * time.Minute), Queued: t0.Add(-4 * time.Hour)}).Decision
		}, t0.Add(30*time.Minute + 1)},
		{"KEP-9876 reclaim", func(c *tenure.Cycle) eligibility.Decision {
			return c.CheckAdmitted(admitprotect.InCohortReclamation, t0.Add(-5*time.Minute), false)
		}, t0.Add(5 * time.Minute)},
		{"preemptor delay", func(c *tenure.Cycle) eligibility.Decision {
			return c.CheckPreemptor(&requeue.Contender{Queued: t0.Add(-10 * time.Second)})
		}, t0.Add(20 * time.Second)},
	}
	c := p.BeginAt(t0)
	for _, s := range steps {
		d := s.do(c)
		if d.Allowed || !d.Until.Equal(s.wantUntil) {
			t.Errorf("%s: %v, want denied until %v", s.name, d, s.wantUntil)
		}
		if !c.Wake().Equal(s.wantUntil) { // each step's Until is earlier than the last
			t.Errorf("after %s: Wake = %v, want %v", s.name, c.Wake(), s.wantUntil)
		}
	}
	// Classify, one candidate at a time, counts its Until too.
	c = p.BeginAt(t0)
	req := timebased.Request{Priority: 1, Timestamp: t0.Add(-3 * time.Hour)}
	if d := c.Classify(req, timebased.Candidate{ID: "x", Priority: 1, Reserved: t0.Add(-time.Hour), Queued: t0.Add(-4 * time.Hour)}); d.Allowed || !c.Wake().Equal(t0.Add(1)) {
		t.Errorf("Classify at exactly M: %+v, Wake %v; want protected until the next nanosecond", d, c.Wake())
	}

	// Allowed answers leave Wake alone.
	c = p.BeginAt(t0)
	c.CheckPreemptor(&requeue.Contender{Queued: t0.Add(-time.Minute)})
	c.CheckAdmitted(admitprotect.InCohortFairSharing, t0.Add(-2*time.Hour), false)
	c.CheckAdmitted(admitprotect.InCohortFairSharing, t0, true)
	if !c.Wake().IsZero() {
		t.Errorf("Wake = %v after allowed answers", c.Wake())
	}
}

// TestRequeueAppliesBudgetAndDelay: the composed engine denies an
// over-budget victim and a too-fresh contender with their reasons and
// Untils, and reports the eviction record of a committed victim.
func TestRequeueAppliesBudgetAndDelay(t *testing.T) {
	cfg := allPolicies()
	p, err := tenure.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.QueueID("q")
	if err != nil {
		t.Fatal(err)
	}
	job := func(record string) eligibility.Job {
		j := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
		if record != "" {
			j.Annotations[evictionbudget.Annotation] = record
		}
		return j
	}
	run := func(record string, queued time.Time) (tenure.RequeueResult, *tenure.Cycle) {
		c := p.BeginAt(t0)
		res, err := c.Requeue(tenure.RequeueInput{
			Running:    []eligibility.Job{job(record)},
			Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: q, Queued: queued}},
		}, protectedCluster(t))
		if err != nil || len(res.Engine.Outcomes) != 1 {
			t.Fatalf("Requeue: %v, %+v", err, res.Engine.Outcomes)
		}
		return res, c
	}

	res, c := run(eligibility.FormatNotBefore(t0.Add(-time.Hour)), t0.Add(-time.Hour))
	want := eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: t0.Add(2 * time.Hour)}
	if o := res.Engine.Outcomes[0]; o.Kind != requeue.OutcomeSkipped || o.Decision != want || len(res.EvictionRecords) != 0 {
		t.Errorf("over budget: %v %v, records %v; want skipped %v", o.Kind, o.Decision, res.EvictionRecords, want)
	}
	if !c.Wake().Equal(want.Until) {
		t.Errorf("Wake = %v, want %v", c.Wake(), want.Until)
	}

	res, _ = run("", t0.Add(-10*time.Second))
	want = eligibility.Decision{Reason: preemptordelay.ReasonDelayed, Until: t0.Add(20 * time.Second)}
	if o := res.Engine.Outcomes[0]; o.Kind != requeue.OutcomeSkipped || o.Decision != want {
		t.Errorf("fresh contender: %v %v, want skipped %v", o.Kind, o.Decision, want)
	}

	// At exactly the delay, and with the only recorded eviction exactly a
	// window old, the victim goes and its record is the new eviction alone.
	res, _ = run(eligibility.FormatNotBefore(t0.Add(-3*time.Hour)), t0.Add(-30*time.Second))
	if o := res.Engine.Outcomes[0]; o.Kind != requeue.OutcomeCommitted {
		t.Fatalf("boundary: %v %v, want committed", o.Kind, o.Decision)
	}
	wantRec := map[string]string{"v": eligibility.FormatNotBefore(t0)}
	if diff := cmp.Diff(wantRec, res.EvictionRecords); diff != "" {
		t.Errorf("EvictionRecords (-want +got):\n%s", diff)
	}
}

// TestRecordEviction: the value to write after an eviction by another path.
func TestRecordEviction(t *testing.T) {
	p, err := tenure.New(allPolicies())
	if err != nil {
		t.Fatal(err)
	}
	c := p.BeginAt(t0)
	j := eligibility.Job{}
	k, v := c.RecordEviction(&j)
	if k != evictionbudget.Annotation || v != eligibility.FormatNotBefore(t0) {
		t.Errorf("RecordEviction = %q, %q", k, v)
	}
	j.Annotations = map[string]string{k: v}
	if d := c.CheckEvictionBudget(&j); d.Allowed || !d.Until.Equal(t0.Add(3*time.Hour)) {
		t.Errorf("after one eviction with Max 1: %v", d)
	}
}

// TestNewReportsNewPolicyProblems: the new parts of Config are validated
// with the rest, all at once.
func TestNewReportsNewPolicyProblems(t *testing.T) {
	_, err := tenure.New(tenure.Config{
		Preemption:     timebased.Config{Policy: timebased.LowerPriority, MinAdmitDuration: explicit(time.Second)},
		Protection:     admitprotect.Protection{FairSharing: explicit(0)},
		PreemptorDelay: preemptordelay.Delay{Delay: -time.Second},
		EvictionBudget: evictionbudget.Budget{Max: 2},
	})
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"minAdmitDuration must be at least", "only valid with policy", "fairSharing.minAdmitDuration must be positive", "preemptor delay is negative", "Window must be positive"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestCyclePolicyChecksAllocs: the per-victim and per-contender checks
// allocate nothing.
func TestCyclePolicyChecksAllocs(t *testing.T) {
	p, err := tenure.New(allPolicies())
	if err != nil {
		t.Fatal(err)
	}
	c := p.BeginAt(t0)
	rec := formatRecord([]time.Time{t0.Add(-time.Hour), t0.Add(-time.Minute)})
	j := eligibility.Job{Annotations: map[string]string{evictionbudget.Annotation: rec}}
	req := timebased.Request{Priority: 1, Timestamp: t0.Add(-time.Hour)}
	cand := timebased.Candidate{ID: "x", Priority: 1, Reserved: t0.Add(-2 * time.Hour)}
	for name, f := range map[string]func(){
		"CheckAdmitted":       func() { c.CheckAdmitted(admitprotect.InCohortFairSharing, t0.Add(-time.Minute), false) },
		"CheckPreemptor":      func() { c.CheckPreemptor(&requeue.Contender{Queued: t0.Add(-time.Second)}) },
		"CheckEvictionBudget": func() { c.CheckEvictionBudget(&j) },
		"Classify":            func() { c.Classify(req, cand) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v", name, n)
		}
	}
}

// TestEvictionBudgetNilVictim: a nil victim reads as a job without a
// record, and recording an eviction of it is a no-op, never a panic.
func TestEvictionBudgetNilVictim(t *testing.T) {
	p, err := tenure.New(allPolicies())
	if err != nil {
		t.Fatal(err)
	}
	c := p.BeginAt(t0)
	if d := c.CheckEvictionBudget(nil); !d.Allowed || d.Reason != eligibility.Reason("within_eviction_budget") {
		t.Errorf("CheckEvictionBudget(nil) = %v, want allowed within_eviction_budget", d)
	}
	if k, v := c.RecordEviction(nil); k != evictionbudget.Annotation || v != "" {
		t.Errorf("RecordEviction(nil) = %q, %q; want the key and no value", k, v)
	}
}

// TestEvictionBudgetOwnerCannotPin: through the composed Policy, a record
// dated in year 9999 or unparsable does not make the job unevictable, and
// the value recorded after the next eviction replaces it.
func TestEvictionBudgetOwnerCannotPin(t *testing.T) {
	p, err := tenure.New(allPolicies())
	if err != nil {
		t.Fatal(err)
	}
	c := p.BeginAt(t0)
	for _, rec := range []string{"9999-01-01T00:00:00Z", "garbage"} {
		j := eligibility.Job{Annotations: map[string]string{evictionbudget.Annotation: rec}}
		if d := c.CheckEvictionBudget(&j); !d.Allowed || d.Reason != eligibility.Reason("invalid_eviction_record") || !d.Until.IsZero() {
			t.Errorf("%q: %v, want allowed invalid_eviction_record", rec, d)
		}
		if _, v := c.RecordEviction(&j); v != eligibility.FormatNotBefore(t0) {
			t.Errorf("%q: recorded %q, want only this eviction", rec, v)
		}
	}
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
