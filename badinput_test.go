package tenure_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/requeue"
)

// TestNewRejectsTypedNilCallbacks: a callback that is set but cannot be
// called (a typed nil pointer or func, a Logger without a handler) is a
// construction error naming the field, not a panic in the first cycle.
func TestNewRejectsTypedNilCallbacks(t *testing.T) {
	var nilFilter victimFilterFunc
	var nilObserverFunc eligibility.ObserverFunc
	tests := []struct {
		name  string
		cfg   tenure.Config
		field string
	}{
		{"nil Counter", tenure.Config{Observer: (*counter)(nil)}, "Observer"},
		{"nil ObserverFunc", tenure.Config{Observer: nilObserverFunc}, "Observer"},
		{"nil Func clock", tenure.Config{Clock: clock.Func(nil)}, "Clock"},
		{"nil VictimFilterFunc", tenure.Config{Engine: requeue.EngineConfig{Filters: []requeue.VictimFilter{nilFilter}}}, "Engine.Filters[0]"},
		{"nil engine observer", tenure.Config{Engine: requeue.EngineConfig{Observer: (*counter)(nil)}}, "Engine.Observer"},
		{"zero Logger", tenure.Config{Logger: &slog.Logger{}}, "Logger"},
		{"typed-nil TextHandler", tenure.Config{Logger: slog.New((*slog.TextHandler)(nil))}, "Logger"},
		{"typed-nil JSONHandler", tenure.Config{Logger: slog.New((*slog.JSONHandler)(nil))}, "Logger"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tenure.New(tt.cfg)
			if err == nil {
				t.Fatalf("New accepted %s (Policy %p)", tt.name, p)
			}
			if !strings.HasPrefix(err.Error(), "tenure: ") || !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not start with tenure: and name %s", err, tt.field)
			}
		})
	}
	// Usable callbacks still pass.
	if _, err := tenure.New(tenure.Config{Observer: new(counter), Clock: clock.Func(func() time.Time { return t0 }), Logger: slog.Default()}); err != nil {
		t.Errorf("New rejected working callbacks: %v", err)
	}
}

// TestWakeNotImmediateAtNow: a preemptor that has waited exactly its
// delay is allowed at the cycle's instant; nothing waits on time, so Wake
// stays zero instead of asking for an immediate cycle. A later Until
// still counts.
func TestWakeNotImmediateAtNow(t *testing.T) {
	p, err := tenure.New(tenure.Config{PreemptorDelay: preemptordelay.Delay{Delay: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	c := p.BeginAt(t0)
	if d := c.CheckPreemptor(&requeue.Contender{Queued: t0.Add(-time.Minute)}); !d.Allowed || d.Until.After(t0) {
		t.Fatalf("CheckPreemptor = %+v; want allowed", d)
	}
	if w := c.Wake(); !w.IsZero() {
		t.Errorf("Wake = %v, want zero: nothing waits on time", w)
	}
	c.CheckPreemptor(&requeue.Contender{Queued: t0.Add(-time.Minute + time.Second)})
	if w := c.Wake(); !w.Equal(t0.Add(time.Second)) {
		t.Errorf("Wake = %v, want %v", w, t0.Add(time.Second))
	}
}
