package tenure_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestInvalidActionCycle: Cycle.CheckVictim and Cycle.ValidateScenario,
// which pass the action straight to eligibility, deny and reject any
// runtime.Action other than preempt and reclaim with invalid_action, where
// the valid actions keep the job by its 2h protection; the denial has no
// Until, so it schedules no wake-up. Before the fix, Action(2) resolved to
// a zero min-runtime and let both through.
func TestInvalidActionCycle(t *testing.T) {
	p, team := failClosedPolicy(t)
	for a := 0; a < 256; a++ {
		action := runtime.Action(a)
		valid := action == runtime.ActionPreempt || action == runtime.ActionReclaim
		c := p.BeginAt(t0)
		job := eligibility.Job{ID: "j", Queue: team, Start: t0.Add(-time.Minute)}
		d := c.CheckVictim(action, team, &job)
		want := eligibility.ReasonMinRuntimeProtected
		if !valid {
			want = eligibility.ReasonInvalidAction
		}
		if d.Allowed || d.Reason != want || d.Until.IsZero() != !valid {
			t.Errorf("%v: CheckVictim %v; want denied %s", action, d, want)
		}
		if !valid && !c.Wake().IsZero() {
			t.Errorf("%v: Wake = %v after an invalid_action denial", action, c.Wake())
		}
		elastic := &eligibility.Job{ID: "e", Queue: team, Start: t0.Add(-time.Minute),
			Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 3, Active: 4}}}
		sd, err := c.ValidateScenario(action, team, []minruntime.Victim{{Job: elastic, Tasks: []minruntime.Task{
			{ID: "1", Subgroup: "w", Active: true}, {ID: "2", Subgroup: "w", Active: true}}}})
		want = minruntime.ReasonBelowMinAvailable
		if !valid {
			want = eligibility.ReasonInvalidAction
		}
		if err != nil || sd.Allowed || sd.Reason != want {
			t.Errorf("%v: ValidateScenario %v, %v; want rejected %s", action, sd, err, want)
		}
	}
}
