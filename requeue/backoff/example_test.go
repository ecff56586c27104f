package backoff_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// The zero Config is Kueue's default: 60s doubling per requeue,
// capped at 1h.
func ExampleConfig_Delay() {
	var c backoff.Config
	for _, n := range []int{0, 1, 2, 6, 7, 1_000_000_000} {
		fmt.Printf("requeue %d: %v\n", n, c.Delay(n, 0))
	}
	// Output:
	// requeue 0: 0s
	// requeue 1: 1m0s
	// requeue 2: 2m0s
	// requeue 6: 32m0s
	// requeue 7: 1h0m0s
	// requeue 1000000000: 1h0m0s
}

// Jitter comes from the caller: a fixed draw, or one from a seeded source
// for reproducible runs.
func ExampleConfig_Delay_jitter() {
	c := backoff.Config{Jitter: 0.1}
	fmt.Println(c.Delay(1, 0.5))
	src := rand.New(rand.NewPCG(1, 1))
	d := c.Delay(3, src.Float64())
	fmt.Println(d >= 4*time.Minute && d < 4*time.Minute+24*time.Second)
	fmt.Println(c.Delay(3, 0)) // no draw, no jitter
	// Output:
	// 1m3s
	// true
	// 4m0s
}

// KEP-1282's worked example: 10 requeues from a 60s base. Without a cap the
// job waits 61,380s in total (the KEP's "8h 32min" is only the last delay);
// with the default 1h cap it waits 5h3m.
func ExampleConfig_Delay_sum() {
	total := func(c backoff.Config, n int) (sum time.Duration) {
		for k := 1; k <= n; k++ {
			sum += c.Delay(k, 0)
		}
		return sum
	}
	uncapped := backoff.Config{Uncapped: true}
	fmt.Println(uncapped.Delay(10, 0), total(uncapped, 10))
	fmt.Println(total(backoff.Config{}, 10))
	// Output:
	// 8h32m0s 17h3m0s
	// 5h3m0s
}

// A job that never becomes ready is requeued twice, then deactivated on its
// third timeout; the deactivation resets its state.
func ExampleState_Timeout() {
	limit := 2
	c := backoff.Config{Limit: &limit}
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	var s backoff.State
	for i := 1; i <= 3; i++ {
		next, deactivated := s.Timeout(c, now, 0)
		if deactivated {
			fmt.Printf("timeout %d: deactivated, state reset to %+v\n", i, next)
			break
		}
		ok := !now.Before(next.RequeueAt) // admissible
		fmt.Printf("timeout %d: count %d, admissible %v until %s\n", i, next.Count, ok, next.RequeueAt.Format("15:04"))
		s, now = next, next.RequeueAt // admitted again at requeueAt
	}
	// Output:
	// timeout 1: count 1, admissible false until 09:01
	// timeout 2: count 2, admissible false until 09:03
	// timeout 3: deactivated, state reset to {Count:0 RequeueAt:0001-01-01 00:00:00 +0000 UTC}
}

// Kueue's requeuing strategy as JSON, in Kueue's spelling: keys are exact,
// explicit zeros count (backoffBaseSeconds 0: no delay; backoffMaxSeconds
// 0: no cap).
func ExampleStrategy_UnmarshalJSON() {
	var s backoff.Strategy
	err := json.Unmarshal([]byte(`{"timestamp":"Creation","backoffMaxSeconds":0}`), &s)
	fmt.Println(*s.Timestamp == backoff.TimestampCreation, s.Backoff.Uncapped, s.Backoff.Delay(8, 0), err)

	err = json.Unmarshal([]byte(`{"BackoffBaseSeconds":10}`), &s)
	fmt.Println(err)

	// The one refusal: Kueue would wait 2h on the first requeue, past its 1h cap.
	err = json.Unmarshal([]byte(`{"backoffBaseSeconds":7200}`), &s)
	fmt.Println(err)
	// Output:
	// true true 2h8m0s <nil>
	// backoff: requeuingStrategy: unknown key "BackoffBaseSeconds" (want timestamp, backoffLimitCount, backoffBaseSeconds, backoffMaxSeconds)
	// backoff: base 2h0m0s exceeds max 1h0m0s
}
