package clock_test

import (
	"sync"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// conformance runs the contract every Clock must meet against one
// implementation: Now is safe for concurrent use and never goes backwards on
// its own.
func conformance(t *testing.T, c clock.Clock) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev := c.Now()
			for i := 0; i < 200; i++ {
				now := c.Now()
				if now.Before(prev) {
					errs <- "Now went backwards: " + prev.String() + " then " + now.String()
					return
				}
				prev = now
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestConformance(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	impls := map[string]clock.Clock{
		"Func":      clock.Func(time.Now),
		"FuncFixed": clock.Func(func() time.Time { return t0 }),
	}
	for name, c := range impls {
		t.Run(name, func(t *testing.T) { conformance(t, c) })
	}
}

func TestFuncNilIsZero(t *testing.T) {
	var f clock.Func
	if got := f.Now(); !got.IsZero() {
		t.Fatalf("nil Func Now() = %v, want zero time", got)
	}
}
