package cluster

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/tenurepolicy/tenure/requeue"
)

// churnNodes returns n nodes of 8 GPUs (64 cores, 512 GiB).
func churnNodes(n int) []Node {
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{Name: fmt.Sprintf("node-%05d", i), Capacity: Resources{MilliCPU: 64000, Memory: 512 << 30, GPU: 8}}
	}
	return nodes
}

var churnTask = []Resources{{MilliCPU: 4000, Memory: 32 << 30, GPU: 1}}

// churner keeps live running 1-GPU jobs on a cluster sized for 1.6 times as
// many; cycle removes the oldest job and adds and places a new one, as when
// a job finishes and the next one starts.
type churner struct {
	c          *Model
	live, next int
}

func newChurner(tb testing.TB, live int) *churner {
	tb.Helper()
	c, err := New(churnNodes(live / 5))
	if err != nil {
		tb.Fatal(err)
	}
	ch := &churner{c: c, live: live}
	for range live {
		ch.add(tb, nil)
	}
	return ch
}

func (ch *churner) add(tb testing.TB, j *requeue.Journal) {
	id := "job-" + strconv.Itoa(ch.next)
	ch.next++
	if err := ch.c.AddJob(j, Job{ID: id, Tasks: churnTask}); err != nil {
		tb.Fatal(err)
	}
	if ok, err := ch.c.Place(j, id); !ok || err != nil {
		tb.Fatalf("Place(%s) = %v, %v", id, ok, err)
	}
}

func (ch *churner) cycle(tb testing.TB, j *requeue.Journal) {
	if err := ch.c.removeJob(j, "job-"+strconv.Itoa(ch.next-ch.live)); err != nil {
		tb.Fatal(err)
	}
	ch.add(tb, j)
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkClusterChurn is one remove+add+place cycle at a constant live
// count, without a journal (as the simulator runs it). It reports the slots
// the cluster holds at the end and the heap growth over the run; run it
// with a fixed count (-benchtime 300000x) to compare heap growth. The naive
// baseline is the map-based oracle of the state-machine test.
func BenchmarkClusterChurn(b *testing.B) {
	for _, live := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("live=%d", live), func(b *testing.B) {
			ch := newChurner(b, live)
			before := heapAlloc()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ch.cycle(b, nil)
			}
			b.StopTimer()
			b.ReportMetric(float64(len(ch.c.jobs)), "slots")
			b.ReportMetric(float64(int64(heapAlloc())-int64(before))/(1<<20), "heapMB")
			runtime.KeepAlive(ch)
		})
		b.Run(fmt.Sprintf("live=%d/naive", live), func(b *testing.B) {
			n := newNaiveCluster(churnNodes(live / 5))
			next := 0
			add := func() {
				id := "job-" + strconv.Itoa(next)
				next++
				if err := n.addJob(Job{ID: id, Tasks: churnTask}); err != nil {
					b.Fatal(err)
				}
				if ok, err := n.place(id); !ok || err != nil {
					b.Fatalf("place(%s) = %v, %v", id, ok, err)
				}
			}
			for range live {
				add()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := n.removeJob("job-" + strconv.Itoa(next-live)); err != nil {
					b.Fatal(err)
				}
				add()
			}
		})
	}
}

// BenchmarkClusterChurnJournal is the same cycle recorded in a journal and
// committed every 100 cycles, as a test driving the model through the
// engine's journal does.
func BenchmarkClusterChurnJournal(b *testing.B) {
	ch := newChurner(b, 1000)
	var j requeue.Journal
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ch.cycle(b, &j)
		if i%100 == 99 {
			_ = j.Commit()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(ch.c.jobs)), "slots")
}

// BenchmarkClusterClone clones a cluster of live running jobs, fresh or
// after 10 × live remove+add cycles: the churned clone should cost the same
// as the fresh one. The naive baseline deep-copies the map-based oracle.
func BenchmarkClusterClone(b *testing.B) {
	for _, live := range []int{1000, 10000} {
		for _, churned := range []bool{false, true} {
			name := fmt.Sprintf("live=%d/fresh", live)
			if churned {
				name = fmt.Sprintf("live=%d/churned", live)
			}
			b.Run(name, func(b *testing.B) {
				ch := newChurner(b, live)
				if churned {
					for range 10 * live {
						ch.cycle(b, nil)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					_ = ch.c.Clone()
				}
			})
		}
		b.Run(fmt.Sprintf("live=%d/naive", live), func(b *testing.B) {
			n := newNaiveCluster(churnNodes(live / 5))
			for i := range live {
				id := "job-" + strconv.Itoa(i)
				_ = n.addJob(Job{ID: id, Tasks: churnTask})
				if ok, _ := n.place(id); !ok {
					b.Fatal("no fit")
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = n.clone()
			}
		})
	}
}
