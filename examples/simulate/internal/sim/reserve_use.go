package sim

import "github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

// Where a job may go when reservations hold nodes, under either
// reservation policy: reserve-naive (reservations, reserve_naive.go) or
// reserve (tenureReserve, reserve_tenure.go). Reserved nodes are masked
// in the cluster (cluster.State.SetMask), so the fit search skips them;
// these say which of them a given job may use after all.

// openReserved returns the reserved nodes job id may use: under
// reserve-naive those it holds; under reserve those Cycle.Backfill allows
// it (its own, and others' when it would leave before their planned
// start). The slice is valid until the next call.
func (s *sim) openReserved(id int32) []int32 {
	if tr := s.pol.tr; tr != nil {
		return tr.open(id)
	}
	return s.resv.mine(id)
}

// nodeUsable reports whether job id may use node n (start or preempt
// there).
func (s *sim) nodeUsable(n int, id int32) bool {
	if tr := s.pol.tr; tr != nil {
		return tr.usable(n, id)
	}
	return s.resv.usable(n, id)
}

// reservationsApply reports whether reservations may place job id
// differently from other jobs of its shape, so that the cycle's shape
// caches must not be used for it: under reserve-naive when it holds one;
// under reserve whenever one is held (Backfill's answer depends on the
// job's queue, through its expected runtime).
func (s *sim) reservationsApply(id int32) bool {
	if tr := s.pol.tr; tr != nil {
		return len(tr.held) > 0
	}
	return s.resv.mine(id) != nil
}

// reserveGPUs is job j's size as a reservation counts it: tasks × GPUs
// per task, a task sharing a GPU counting one (a whole device it needs
// free of whole-GPU tasks).
func reserveGPUs(j *trace.Job) int64 { return int64(j.Tasks) * int64(j.GPUs) }
