package main

import (
	"io"
	"sync"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
)

// Workloads are prepared when their first simulation starts and dropped
// when their last one ends: with one worker, preparing workload k finds
// every earlier workload dropped already (all of them prepared up front
// would hold memory for every grid point and seed at once), each is
// prepared exactly once, and the results come back in task order.
func TestWorkloadsPreparedLazily(t *testing.T) {
	o, err := parseFlags([]string{"-synthetic", "-jobs", "60"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o.resolveDefaults()
	policies := []string{"priority", "minruntime"}
	var mu sync.Mutex
	var works []*lazyWork
	prepared := make([]int, 4)
	var tasks []task
	for k := range prepared {
		lw := newLazyWork(len(policies), func() (*sim.Workload, error) {
			mu.Lock()
			prepared[k]++
			for i := range k {
				if works[i].w != nil {
					t.Errorf("preparing workload %d: workload %d is still held", k, i)
				}
			}
			mu.Unlock()
			oc := o
			oc.seed = int64(k + 1)
			jobs, nodes, _, err := oc.input()
			if err != nil {
				return nil, err
			}
			return sim.Prepare(jobs, nodes, oc.load())
		})
		works = append(works, lw)
		for _, p := range policies {
			tasks = append(tasks, task{lw, p})
		}
	}
	results, err := simulateAll(tasks, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range prepared {
		if n != 1 {
			t.Errorf("workload %d prepared %d times", k, n)
		}
		if works[k].w != nil {
			t.Errorf("workload %d held after the run", k)
		}
	}
	for i, r := range results {
		if r.Policy != policies[i%len(policies)] {
			t.Errorf("result %d is %s, want %s", i, r.Policy, policies[i%len(policies)])
		}
	}
}

// Simulations of one workload started at once prepare it once and share
// it; the last release drops it.
func TestLazyWorkOnce(t *testing.T) {
	calls := 0
	w := &sim.Workload{}
	lw := newLazyWork(8, func() (*sim.Workload, error) { calls++; return w, nil })
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := lw.get(); got != w || err != nil {
				t.Errorf("get: %p, %v", got, err)
			}
			lw.release()
		}()
	}
	wg.Wait()
	if calls != 1 || lw.w != nil {
		t.Errorf("prepared %d times, held %v after the last release; want once, dropped", calls, lw.w != nil)
	}
}
