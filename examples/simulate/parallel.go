package main

import (
	"fmt"
	"sync"
)

// task is one simulation: a prepared workload and a policy.
type task struct {
	w      *workload
	policy string
}

// simulateAll runs the tasks on up to workers goroutines (the simulations
// share nothing mutable: each builds its own policy and state over the
// workload's read-only jobs, nodes and environment) and returns their
// results in task order, so the output does not depend on the number of
// cores. prog, if not nil, is told the fraction of all the simulated time
// covered so far.
func simulateAll(tasks []task, workers int, prog *progress) ([]Result, error) {
	results := make([]Result, len(tasks))
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
		prog.update(fmt.Sprintf("%d of %d simulations done", d, len(tasks)), sum, float64(len(tasks)))
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(tasks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = simulate(tasks[i].w, tasks[i].policy, func(d, total int64) {
					report(i, float64(d)/float64(max(total, 1)))
				})
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
