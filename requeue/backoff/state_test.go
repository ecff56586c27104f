package backoff_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/requeue/backoff"
)

func TestRequeueStateTimeout(t *testing.T) {
	later := backoffT0.Add(24 * time.Hour)
	tests := []struct {
		name      string
		cfg       backoff.Config
		state     backoff.State
		u         float64
		want      backoff.State
		wantDeact bool
	}{
		{"first timeout, no limit", backoff.Config{}, backoff.State{}, 0,
			backoff.State{Count: 1, RequeueAt: backoffT0.Add(time.Minute)}, false},
		{"first timeout with jitter", backoff.Config{}, backoff.State{}, 0.5,
			backoff.State{Count: 1, RequeueAt: backoffT0.Add(time.Minute + 3*time.Millisecond)}, false},
		{"third timeout", backoff.Config{}, backoff.State{Count: 2}, 0,
			backoff.State{Count: 3, RequeueAt: backoffT0.Add(4 * time.Minute)}, false},
		{"below the limit requeues", backoff.Config{Limit: backoff.Limit(3)}, backoff.State{Count: 2}, 0,
			backoff.State{Count: 3, RequeueAt: backoffT0.Add(4 * time.Minute)}, false},
		{"at the limit deactivates and resets", backoff.Config{Limit: backoff.Limit(3)},
			backoff.State{Count: 3, RequeueAt: backoffT0.Add(-time.Minute)}, 0, backoff.State{}, true},
		{"above the limit deactivates", backoff.Config{Limit: backoff.Limit(3)}, backoff.State{Count: 9}, 0,
			backoff.State{}, true},
		{"limit 0 deactivates on the first timeout", backoff.Config{Limit: backoff.Limit(0)}, backoff.State{}, 0,
			backoff.State{}, true},
		{"requeueAt never moves earlier", backoff.Config{}, backoff.State{Count: 1, RequeueAt: later}, 0,
			backoff.State{Count: 2, RequeueAt: later}, false},
		{"count saturates", backoff.Config{}, backoff.State{Count: math.MaxInt}, 0,
			backoff.State{Count: math.MaxInt, RequeueAt: backoffT0.Add(time.Hour)}, false},
		{"negative count restarts at one", backoff.Config{}, backoff.State{Count: -7}, 0,
			backoff.State{Count: 1, RequeueAt: backoffT0.Add(time.Minute)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, deact := tt.state.Timeout(tt.cfg, backoffT0, tt.u)
			if deact != tt.wantDeact {
				t.Errorf("deactivated = %v, want %v", deact, tt.wantDeact)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Timeout mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRequeueStateKEP1282 replays KEP-1282's scenario: limit 10, base 60s,
// the job times out again as soon as it is requeued (timeout 0 for
// simplicity). It is requeued exactly 10 times, waits Base·(2^10−1) in
// total without a cap (61,380s = 17h3m, not the KEP's "8h 32min"), and the
// 11th timeout deactivates it; reactivated, it starts from zero.
func TestRequeueStateKEP1282(t *testing.T) {
	cfg := backoff.Config{Limit: backoff.Limit(10), Max: 1000 * time.Hour}
	var s backoff.State
	now := backoffT0
	var delays []time.Duration
	for i := 1; ; i++ {
		next, deact := s.Timeout(cfg, now, 0)
		if deact {
			if i != 11 {
				t.Fatalf("deactivated at timeout %d, want 11", i)
			}
			if diff := cmp.Diff(backoff.State{}, next); diff != "" {
				t.Errorf("state after deactivation (-want +got):\n%s", diff)
			}
			break
		}
		if next.Count != i {
			t.Fatalf("timeout %d: Count = %d, want %d", i, next.Count, i)
		}
		if !now.Before(next.RequeueAt) {
			t.Fatalf("timeout %d: admissible right after eviction: RequeueAt %v, now %v", i, next.RequeueAt, now)
		}
		delays = append(delays, next.RequeueAt.Sub(now))
		now = next.RequeueAt // requeued and admitted at once, times out at once
		s = next
		if i > 11 {
			t.Fatal("never deactivated")
		}
	}
	wantDelays := []time.Duration{60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720}
	for i := range wantDelays {
		wantDelays[i] *= time.Second
	}
	if diff := cmp.Diff(wantDelays, delays); diff != "" {
		t.Errorf("delays (-want +got):\n%s", diff)
	}
	if got, want := now.Sub(backoffT0), 61380*time.Second; got != want {
		t.Errorf("total wait = %v, want %v", got, want)
	}
	if got, want := sumDelays(cfg, 10), now.Sub(backoffT0); got != want {
		t.Errorf("the first 10 delays sum to %v, want the replayed total %v", got, want)
	}
	// Reactivation starts from zero: the next timeout is a first backoff.
	next, deact := backoff.State{}.Timeout(cfg, now, 0)
	if deact || next.Count != 1 || next.RequeueAt.Sub(now) != time.Minute {
		t.Errorf("after reactivation: (%+v, %v), want Count 1 and a 1m delay", next, deact)
	}
}

// With Kueue's backoffBaseSeconds 0 (NoDelay) a timed-out job is admissible
// again at once, but it is still counted and the limit still deactivates it.
func TestRequeueStateNoDelayStillCounts(t *testing.T) {
	cfg := backoff.Config{NoDelay: true, Limit: backoff.Limit(2)}
	var s backoff.State
	for i := 1; i <= 2; i++ {
		next, deact := s.Timeout(cfg, backoffT0, 0.9)
		if deact || next.Count != i || !next.RequeueAt.Equal(backoffT0) {
			t.Fatalf("timeout %d: (%+v, %v), want Count %d, RequeueAt %v", i, next, deact, i, backoffT0)
		}
		if backoffT0.Before(next.RequeueAt) {
			t.Fatalf("timeout %d: not admissible at once", i)
		}
		s = next
	}
	if next, deact := s.Timeout(cfg, backoffT0, 0); !deact || next != (backoff.State{}) {
		t.Errorf("third timeout: (%+v, %v), want deactivated and reset", next, deact)
	}
}

func TestRequeueStateNoLimitNeverDeactivates(t *testing.T) {
	var s backoff.State
	now := backoffT0
	for i := 0; i < 1000; i++ {
		next, deact := s.Timeout(backoff.Config{}, now, 0)
		if deact {
			t.Fatalf("deactivated at timeout %d without a limit", i+1)
		}
		s = next
		now = now.Add(time.Minute)
	}
	if s.Count != 1000 {
		t.Errorf("Count = %d, want 1000", s.Count)
	}
}

// TestRequeueStateTimeoutAtLastInstant: now + delay saturates at the last
// instant a time.Time holds, so RequeueAt is never before now (the plain
// sum lost the nanosecond carry and landed before now, and the job was
// admissible at once); below it the sum is exact.
func TestRequeueStateTimeoutAtLastInstant(t *testing.T) {
	for _, tc := range []struct {
		now  time.Time
		u    float64
		want time.Time
	}{
		{clock.Last(), 0, clock.Last()},
		{clock.Last(), 0.5, clock.Last()},
		{clock.Last(), 0.999, clock.Last()},
		{clock.Last().Add(-30 * time.Second), 0.5, clock.Last()},
		{clock.Last().Add(-time.Minute - 3*time.Millisecond), 0.5, clock.Last()},
		{clock.Last().Add(-time.Minute - 3*time.Millisecond - 1), 0.5, clock.Last().Add(-1)},
		{clock.Last().Add(-2 * time.Minute), 0, clock.Last().Add(-time.Minute)},
	} {
		next, deact := backoff.State{}.Timeout(backoff.Config{}, tc.now, tc.u)
		if deact || next.Count != 1 || !next.RequeueAt.Equal(tc.want) {
			t.Errorf("Timeout at %v, draw %v = %+v, %v; want RequeueAt %v", tc.now, tc.u, next, deact, tc.want)
		}
	}
}
