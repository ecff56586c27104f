package clock_test

import (
	"sync"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/clock/clocktest"
)

// conformance runs the contract every Clock must meet against one
// implementation: Now is safe for concurrent use and never goes backwards on
// its own (only an explicit Set may move a Fake back).
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
		"Real":      clock.Real{},
		"Func":      clock.Func(time.Now),
		"Fake":      clocktest.New(t0),
		"FuncFixed": clock.Func(func() time.Time { return t0 }),
	}
	for name, c := range impls {
		t.Run(name, func(t *testing.T) { conformance(t, c) })
	}
}

func TestRealIsWallClock(t *testing.T) {
	before := time.Now()
	got := clock.Real{}.Now()
	after := time.Now()
	if got.Before(before) || got.After(after) {
		t.Fatalf("Real.Now() = %v, want within [%v, %v]", got, before, after)
	}
}

func TestFuncNilIsZero(t *testing.T) {
	var f clock.Func
	if got := f.Now(); !got.IsZero() {
		t.Fatalf("nil Func Now() = %v, want zero time", got)
	}
}

func TestFakeSetAndStep(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f := clocktest.New(t0)
	if got := f.Now(); !got.Equal(t0) {
		t.Fatalf("New(t0).Now() = %v, want %v", got, t0)
	}
	if got := f.Step(90 * time.Second); !got.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("Step(90s) = %v, want %v", got, t0.Add(90*time.Second))
	}
	if got := f.Now(); !got.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("Now after Step = %v", got)
	}
	f.Set(t0.Add(-time.Hour))
	if got := f.Now(); !got.Equal(t0.Add(-time.Hour)) {
		t.Fatalf("Now after Set back = %v, want %v", got, t0.Add(-time.Hour))
	}
	if got := f.Step(-time.Minute); !got.Equal(t0.Add(-61 * time.Minute)) {
		t.Fatalf("Step(-1m) = %v", got)
	}
	var zero clocktest.Fake
	if !zero.Now().IsZero() {
		t.Fatal("zero Fake should report the zero time")
	}
}

func TestFakeConcurrentSteps(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := clocktest.New(t0)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				f.Step(time.Second)
			}
		}()
	}
	wg.Wait()
	if got, want := f.Now(), t0.Add(800*time.Second); !got.Equal(want) {
		t.Fatalf("after 800 concurrent 1s steps Now() = %v, want %v", got, want)
	}
}

// TestFakeConcurrentSet races Set against Now and Step; with -race it checks
// that Set takes the lock too. Every Now must see one of the instants set
// (or set then stepped), never a torn value.
func TestFakeConcurrentSet(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := clocktest.New(t0)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			f.Set(t0.Add(time.Duration(i) * time.Hour))
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			f.Step(0)
			if got := f.Now(); got.Before(t0) || got.After(t0.Add(99*time.Hour)) || got.Sub(t0)%time.Hour != 0 {
				t.Errorf("Now() = %v during concurrent Sets", got)
				return
			}
		}
	}()
	wg.Wait()
	if got, want := f.Now(), t0.Add(99*time.Hour); !got.Equal(want) {
		t.Fatalf("after the last Set Now() = %v, want %v", got, want)
	}
}
