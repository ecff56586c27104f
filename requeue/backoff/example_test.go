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
		fmt.Printf("requeue %d: %v\n", n, c.Delay(n))
	}
	// Output:
	// requeue 0: 0s
	// requeue 1: 1m0s
	// requeue 2: 2m0s
	// requeue 6: 32m0s
	// requeue 7: 1h0m0s
	// requeue 1000000000: 1h0m0s
}

// Jitter comes from the caller: a fixed draw, or a seeded source for
// reproducible runs.
func ExampleConfig_DelayFrom() {
	c := backoff.Config{Jitter: 0.1}
	fmt.Println(c.DelayJitter(1, 0.5))
	src := rand.New(rand.NewPCG(1, 1))
	d := c.DelayFrom(3, src)
	fmt.Println(d >= 4*time.Minute && d < 4*time.Minute+24*time.Second)
	fmt.Println(c.DelayFrom(3, nil)) // no source, no jitter
	// Output:
	// 1m3s
	// true
	// 4m0s
}

// KEP-1282's worked example: 10 requeues from a 60s base. Without a cap the
// job waits 61,380s in total (the KEP's "8h 32min" is only the last delay);
// with the default 1h cap it waits 5h3m.
func ExampleConfig_TotalDelay() {
	uncapped := backoff.Config{Uncapped: true}
	fmt.Println(uncapped.Delay(10), uncapped.TotalDelay(10))
	fmt.Println(backoff.Config{}.TotalDelay(10))
	// Output:
	// 8h32m0s 17h3m0s
	// 5h3m0s
}

// A job that never becomes ready is requeued twice, then deactivated on its
// third timeout; the deactivation resets its state.
func ExampleState_Timeout() {
	c := backoff.Config{Limit: backoff.Limit(2)}
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	var s backoff.State
	for i := 1; i <= 3; i++ {
		next, deactivated := s.Timeout(c, now, 0)
		if deactivated {
			fmt.Printf("timeout %d: deactivated, state reset to %+v\n", i, next)
			break
		}
		ok, until := next.Admissible(now)
		fmt.Printf("timeout %d: count %d, admissible %v until %s\n", i, next.Count, ok, until.Format("15:04"))
		s, now = next, next.RequeueAt // admitted again at requeueAt
	}
	// Output:
	// timeout 1: count 1, admissible false until 09:01
	// timeout 2: count 2, admissible false until 09:03
	// timeout 3: deactivated, state reset to {Count:0 RequeueAt:0001-01-01 00:00:00 +0000 UTC}
}

// Forks of Kueue can pass its field names through unchanged: parse the
// string form, then convert.
func ExampleKueueStrategyFromMap() {
	k, err := backoff.KueueStrategyFromMap(map[string]string{
		"backoffBaseSeconds": "10",
		"backoffMaxSeconds":  "300",
		"backoffLimitCount":  "5",
	})
	s, err2 := k.Strategy()
	fmt.Println(s.Backoff.Delay(1), s.Backoff.Delay(10), *s.Backoff.Limit, err, err2)

	_, err = backoff.KueueStrategyFromMap(map[string]string{"backoffBaseSeconds": "1", "backoffMaxSecs": "9"})
	fmt.Println(err)
	// Output:
	// 10s 5m0s 5 <nil> <nil>
	// backoff: unknown requeuing strategy setting "backoffMaxSecs"
}

// The same configuration as JSON, in Kueue's spelling: keys are exact, and
// unset fields are left out when writing.
func ExampleKueueStrategy_UnmarshalJSON() {
	var k backoff.KueueStrategy
	err := json.Unmarshal([]byte(`{"timestamp":"Creation","backoffBaseSeconds":10}`), &k)
	out, _ := json.Marshal(k)
	fmt.Println(string(out), err)

	err = json.Unmarshal([]byte(`{"BackoffBaseSeconds":10}`), &k)
	fmt.Println(err)
	// Output:
	// {"timestamp":"Creation","backoffBaseSeconds":10} <nil>
	// backoff: requeuingStrategy: unknown key "BackoffBaseSeconds" (want timestamp, backoffLimitCount, backoffBaseSeconds, backoffMaxSeconds)
}

// Kueue's requeuing strategy converts field for field, explicit zeros
// included (backoffBaseSeconds 0: no delay; backoffMaxSeconds 0: no cap), and
// converts back to exactly what came in.
func ExampleKueueStrategy_Strategy() {
	creation, zero := "Creation", int32(0)
	k := backoff.KueueStrategy{Timestamp: &creation, BackoffMaxSeconds: &zero}
	s, err := k.Strategy()
	fmt.Println(s.QueueOrder().Strategy, s.Backoff.Delay(8), err)

	back, err := s.Kueue()
	fmt.Println(*back.Timestamp, *back.BackoffMaxSeconds, back.BackoffBaseSeconds == nil, err)

	// The one refusal: Kueue would wait 2h on the first requeue, past its 1h cap.
	base := int32(7200)
	_, err = backoff.KueueStrategy{BackoffBaseSeconds: &base}.Strategy()
	fmt.Println(err)
	// Output:
	// Creation 2h8m0s <nil>
	// Creation 0 true <nil>
	// backoff: base 2h0m0s exceeds max 1h0m0s
}
