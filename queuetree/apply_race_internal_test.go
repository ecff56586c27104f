package queuetree

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentReadsDuringPatches: readers query prev while trees are
// derived from it by every patch path (a leaf added, removed and moved,
// the general patch, Update); under the race detector (the CI runs it) a
// write to prev by any of them fails the test.
func TestConcurrentReadsDuringPatches(t *testing.T) {
	var qs []Queue
	for i := 0; i < 300; i++ {
		q := Queue{Name: fmt.Sprintf("q%03d", i)}
		if i > 0 && i%3 != 0 {
			q.Parent = fmt.Sprintf("q%03d", i/2)
		}
		qs = append(qs, q)
	}
	prev, err := New(qs)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, q := range qs {
					id, _ := prev.Lookup(q.Name)
					_ = prev.LCA(id, 5)
					_ = prev.Path(id)
				}
			}
		}()
	}
	for i := 0; i < 60; i++ {
		name := fmt.Sprintf("q%03d", 299-i)
		for _, e := range [][]Edit{
			{{Name: "new" + name, Parent: name}},
			{{Name: name, Remove: true}},
			{{Name: name, Parent: "q001"}},
			{{Name: "q002", Parent: "q150"}},
			{{Name: "a"}, {Name: "b", Parent: "a"}, {Name: name, Parent: "b"}},
		} {
			_, _ = Apply(prev, e...) // some are refused (a cycle); the reads are what is tested
		}
		list := append(qs[:len(qs):len(qs)], Queue{Name: "zz" + name, Parent: name})
		if _, _, err := Update(prev, list); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}
