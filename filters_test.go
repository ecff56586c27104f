package tenure_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/requeue"
)

// TestFilterAdapters: the adapters give eligibility's decisions, boundaries
// included, for an embedder's own requeue.EngineConfig.Filters.
func TestFilterAdapters(t *testing.T) {
	var _ requeue.VictimFilter = tenure.PreemptorDelayFilter{}
	var _ requeue.VictimFilter = tenure.EvictionBudgetFilter{}
	delay := tenure.PreemptorDelayFilter{Delay: preemptordelay.Delay{Delay: time.Minute}}
	v := &requeue.Victim{ID: "v"}
	for _, tt := range []struct {
		queued time.Time
		want   eligibility.Decision
	}{
		{t0.Add(-time.Minute + 1), eligibility.Decision{Reason: preemptordelay.ReasonDelayed, Until: t0.Add(1)}},
		{t0.Add(-time.Minute), eligibility.Decision{Allowed: true, Reason: preemptordelay.ReasonWaited}},
		{time.Time{}, eligibility.Decision{Reason: preemptordelay.ReasonQueuedUnknown}},
	} {
		if got := delay.FilterVictim(t0, v, &requeue.Contender{ID: "c", Queued: tt.queued}); got != tt.want {
			t.Errorf("delay, queued %v: %v, want %v", tt.queued, got, tt.want)
		}
	}
	rec := eligibility.FormatNotBefore(t0.Add(-time.Hour))
	budget := tenure.EvictionBudgetFilter{
		Budget:  evictionbudget.Budget{Max: 1, Window: time.Hour + time.Second},
		Records: func(job string) string { return map[string]string{"v": rec}[job] },
	}
	c := &requeue.Contender{ID: "c"}
	if got, want := budget.FilterVictim(t0, v, c), (eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: t0.Add(time.Second)}); got != want {
		t.Errorf("budget: %v, want %v", got, want)
	}
	if got := budget.FilterVictim(t0.Add(time.Second), v, c); !got.Allowed {
		t.Errorf("budget at exactly t+W: %v, want allowed", got)
	}
	if got := budget.FilterVictim(t0, &requeue.Victim{ID: "other"}, c); !got.Allowed {
		t.Errorf("budget, no record: %v", got)
	}
	if got := (tenure.EvictionBudgetFilter{Budget: budget.Budget}).FilterVictim(t0, v, c); !got.Allowed {
		t.Errorf("nil Records: %v", got)
	}
}
