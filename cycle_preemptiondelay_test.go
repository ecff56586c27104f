package tenure_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/requeue"
)

// kaiDelay is a contender's own delay under KAI-Scheduler's key.
func kaiDelay(v string) map[string]string {
	return map[string]string{"kai.scheduler/preemption-delay": v}
}

// TestCheckPreemptorPerJob: the Cycle applies a contender's own delay
// (KAI-Scheduler's per-job preemption delay) from the later of its
// creation and last eviction, the default without one, and Wake carries
// the end of every denial.
func TestCheckPreemptorPerJob(t *testing.T) {
	p, err := tenure.New(tenure.Config{PreemptorDelay: preemptordelay.Delay{Delay: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name      string
		c         *requeue.Contender
		allowed   bool
		wantUntil time.Time
	}{
		{"nil contender: queued unknown", nil, false, time.Time{}},
		{"default, 1ns short", &requeue.Contender{Queued: t0.Add(-30*time.Second + 1)}, false, t0.Add(1)},
		{"default, exactly", &requeue.Contender{Queued: t0.Add(-30 * time.Second)}, true, time.Time{}},
		{"own 10m, 1ns short", &requeue.Contender{Queued: t0.Add(-10*time.Minute + 1), Annotations: kaiDelay("10m")}, false, t0.Add(1)},
		{"own 10m, exactly", &requeue.Contender{Queued: t0.Add(-10 * time.Minute), Annotations: kaiDelay("10m")}, true, time.Time{}},
		{"own 0s", &requeue.Contender{Queued: t0, Annotations: kaiDelay("0s")}, true, time.Time{}},
		{"own negative", &requeue.Contender{Queued: t0.Add(-time.Hour), Annotations: kaiDelay("-10m")}, false, time.Time{}},
		{"own unparsable", &requeue.Contender{Queued: t0.Add(-time.Hour), Annotations: kaiDelay("10 minutes")}, false, time.Time{}},
		{"re-armed by an eviction", &requeue.Contender{Queued: t0.Add(-time.Hour), LastEvicted: t0.Add(-time.Minute), Annotations: kaiDelay("10m")}, false, t0.Add(9 * time.Minute)},
		{"eviction older than the delay", &requeue.Contender{Queued: t0.Add(-time.Hour), LastEvicted: t0.Add(-10 * time.Minute), Annotations: kaiDelay("10m")}, true, time.Time{}},
	} {
		c := p.BeginAt(t0)
		d := c.CheckPreemptor(tt.c)
		if d.Allowed != tt.allowed || !d.Until.Equal(tt.wantUntil) {
			t.Errorf("%s: %v, want allowed %v until %v", tt.name, d, tt.allowed, tt.wantUntil)
		}
		if !c.Wake().Equal(tt.wantUntil) {
			t.Errorf("%s: Wake = %v, want %v", tt.name, c.Wake(), tt.wantUntil)
		}
	}
	// One bad value does not change the next contender's answer.
	c := p.BeginAt(t0)
	c.CheckPreemptor(&requeue.Contender{Queued: t0, Annotations: kaiDelay("x")})
	if d := c.CheckPreemptor(&requeue.Contender{Queued: t0.Add(-time.Minute)}); !d.Allowed {
		t.Errorf("after a bad value: %v", d)
	}
}

// TestRequeuePerJobDelay: the composed engine applies a contender's own
// delay even when the Config has no default, and its re-arming after an
// eviction; a contender whose value is bad is skipped for itself alone.
func TestRequeuePerJobDelay(t *testing.T) {
	p, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.QueueID("q")
	if err != nil {
		t.Fatal(err)
	}
	victim := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
		Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
	run := func(contender requeue.Contender) requeue.Outcome {
		contender.ID, contender.Priority, contender.Queue = "hi", 9, q
		c := p.BeginAt(t0)
		res, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{victim}, Contenders: []requeue.Contender{contender}}, protectedCluster(t))
		if err != nil || len(res.Engine.Outcomes) != 1 {
			t.Fatalf("Requeue: %v, %+v", err, res.Engine.Outcomes)
		}
		return res.Engine.Outcomes[0]
	}
	o := run(requeue.Contender{Queued: t0.Add(-time.Hour), LastEvicted: t0.Add(-time.Minute), Annotations: kaiDelay("5m")})
	want := eligibility.Decision{Reason: preemptordelay.ReasonDelayed, Until: t0.Add(4 * time.Minute)}
	if o.Kind != requeue.OutcomeSkipped || o.Decision != want {
		t.Errorf("re-armed contender: %v %v, want skipped %v", o.Kind, o.Decision, want)
	}
	o = run(requeue.Contender{Queued: t0.Add(-time.Hour), Annotations: kaiDelay("1y")})
	if o.Kind != requeue.OutcomeSkipped || o.Decision.Reason != "invalid_preemption_delay" {
		t.Errorf("bad own delay: %v %v, want skipped invalid_preemption_delay", o.Kind, o.Decision)
	}
	if o = run(requeue.Contender{Queued: t0.Add(-5 * time.Minute), Annotations: kaiDelay("5m")}); o.Kind != requeue.OutcomeCommitted {
		t.Errorf("at the end of its delay: %v %v, want committed", o.Kind, o.Decision)
	}
}

// TestPreemptionDelayKeyInFile: the key is read under
// annotationKeys.preemptionDelay, and a key that another annotation
// already uses is refused there.
func TestPreemptionDelayKeyInFile(t *testing.T) {
	var c tenure.Config
	if err := json.Unmarshal([]byte(`{"annotationKeys": {"preemptionDelay": "example.com/delay"}, "preemptorDelay": "1m"}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.PreemptorDelay != (preemptordelay.Delay{Delay: time.Minute, Key: "example.com/delay"}) {
		t.Errorf("PreemptorDelay = %+v", c.PreemptorDelay)
	}
	c = tenure.Config{PreemptorDelay: preemptordelay.Delay{Key: expectedruntime.AnnotationRequeueDelay}}
	_, err := tenure.New(c)
	var ce *tenure.ConfigError
	if !errors.As(err, &ce) || ce.Key != "annotationKeys.preemptionDelay" {
		t.Errorf("New with the requeue-delay key: %v, want a ConfigError at annotationKeys.preemptionDelay", err)
	}
}
