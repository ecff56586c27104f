package main

import (
	"fmt"
	"sync"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/progress"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
)

// task is one simulation: a workload and a policy.
type task struct {
	work   *lazyWork
	policy string
}

// lazyWork is one workload (a sweep point and seed), prepared by the
// first of its simulations to start and dropped when the last one ends,
// so memory follows the simulations running at once, not the number of
// grid points × seeds.
type lazyWork struct {
	prepare func() (*sim.Workload, error)
	once    sync.Once
	mu      sync.Mutex
	w       *sim.Workload
	err     error
	users   int // simulations of this workload not yet finished
}

// newLazyWork returns a workload that prepare builds on first use, for
// users simulations.
func newLazyWork(users int, prepare func() (*sim.Workload, error)) *lazyWork {
	return &lazyWork{prepare: prepare, users: users}
}

// get returns the workload, preparing it on first use.
func (l *lazyWork) get() (*sim.Workload, error) {
	l.once.Do(func() {
		w, err := l.prepare()
		l.mu.Lock()
		l.w, l.err, l.prepare = w, err, nil
		l.mu.Unlock()
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w, l.err
}

// release records that one simulation of the workload ended; the last
// one drops it.
func (l *lazyWork) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.users--; l.users == 0 {
		l.w = nil
	}
}

// simulateAll runs the tasks on up to workers goroutines (the simulations
// share nothing mutable: each builds its own policy and state over the
// workload's read-only jobs, nodes and environment) and returns their
// results in task order, so the output does not depend on the number of
// cores. Tasks start in order, so the workloads alive at once are those
// of the tasks running (about workers of them). prog, if not nil, is told
// the fraction of all the simulated time covered so far.
func simulateAll(tasks []task, workers int, prog *progress.Meter) ([]report.Result, error) {
	results := make([]report.Result, len(tasks))
	errs := make([]error, len(tasks))
	var mu sync.Mutex
	frac := make([]float64, len(tasks))
	done := 0
	report := func(i int, f float64) {
		if prog == nil {
			return
		}
		mu.Lock()
		frac[i] = f
		sum := 0.0
		for _, x := range frac {
			sum += x
		}
		d := done
		mu.Unlock()
		prog.Update(fmt.Sprintf("%d of %d simulations done", d, len(tasks)), sum, float64(len(tasks)))
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(tasks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				w, err := tasks[i].work.get()
				if err == nil {
					results[i], err = sim.Simulate(w, tasks[i].policy, func(d, total int64) {
						report(i, float64(d)/float64(max(total, 1)))
					})
				}
				errs[i] = err
				tasks[i].work.release()
				mu.Lock()
				done++
				mu.Unlock()
				report(i, 1)
			}
		}()
	}
	for i := range tasks {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
