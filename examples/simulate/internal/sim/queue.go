package sim

import "slices"

// pendingQueues holds the pending jobs in queue order (backoff.QueueOrder,
// through sim.queueCompare), grouped in buckets of one team queue, one
// priority and one shape. Within a cycle the buckets are merged by their
// first job, so jobs are visited in queue order; when a bucket's first job
// can be placed neither where it fits nor by preemption, no later job of
// that bucket can (same queue, priority and shape, later in queue order:
// see failedPreempt), so the
// whole bucket is set aside for the rest of the cycle. A cycle therefore
// costs O((placements + buckets) · log) rather than a pass over every
// pending job, which is what keeps a backlog of a million jobs cheap.
type pendingQueues struct {
	s       *sim
	index   map[bucketKey]int32
	buckets []bucket
	// nonEmpty lists the buckets holding jobs (bucket.pos is each one's
	// index in it), so a cycle starts from them, not from every bucket
	// ever created.
	nonEmpty []int32
	// merge is the cycle's heap of bucket indices, ordered by first job.
	merge []int32
}

type bucketKey struct {
	leaf, prio int32
	sh         shape
}

// bucket is a binary heap of job IDs in queue order.
type bucket struct {
	key  bucketKey
	jobs []int32
	pos  int32 // index in pendingQueues.nonEmpty; -1 when empty
}

func (q *pendingQueues) init(s *sim) {
	q.s = s
	q.index = map[bucketKey]int32{}
}

func (q *pendingQueues) less(a, b int32) bool { return q.s.queueCompare(a, b) < 0 }

// push adds pending job id to its bucket. O(log n).
func (q *pendingQueues) push(id int32) {
	j := &q.s.jobs[id]
	k := bucketKey{q.s.env.leafIndex(j), j.Priority(), shapeOf(j)}
	bi, ok := q.index[k]
	if !ok {
		bi = int32(len(q.buckets))
		q.index[k] = bi
		q.buckets = append(q.buckets, bucket{key: k, pos: -1})
	}
	b := &q.buckets[bi]
	if len(b.jobs) == 0 {
		b.pos = int32(len(q.nonEmpty))
		q.nonEmpty = append(q.nonEmpty, bi)
	}
	b.jobs = append(b.jobs, id)
	siftUp(b.jobs, len(b.jobs)-1, q.less)
}

// head returns the first job of bucket b (which is not empty).
func (q *pendingQueues) head(b int32) int32 { return q.buckets[b].jobs[0] }

// removeHead removes the first job of bucket b. O(log n).
func (q *pendingQueues) removeHead(b int32) {
	_, h := popMin(q.buckets[b].jobs, q.less)
	q.buckets[b].jobs = h
	if len(h) == 0 {
		// Out of the non-empty list: the last one takes its place.
		i := q.buckets[b].pos
		last := q.nonEmpty[len(q.nonEmpty)-1]
		q.nonEmpty[i] = last
		q.buckets[last].pos = i
		q.nonEmpty = q.nonEmpty[:len(q.nonEmpty)-1]
		q.buckets[b].pos = -1
	}
}

// remove takes pending job id out of its bucket, wherever it is in it
// (a reservation's holder that a requeue pass placed). Not during a
// cycle's merge. O(jobs in the bucket).
func (q *pendingQueues) remove(id int32) {
	j := &q.s.jobs[id]
	bi := q.index[bucketKey{q.s.env.leafIndex(j), j.Priority(), shapeOf(j)}]
	b := &q.buckets[bi]
	i := slices.Index(b.jobs, id)
	if i <= 0 {
		q.removeHead(bi)
		return
	}
	last := len(b.jobs) - 1
	b.jobs[i] = b.jobs[last]
	b.jobs = b.jobs[:last]
	if i < last {
		siftDown(b.jobs, i, q.less)
		siftUp(b.jobs, i, q.less)
	}
}

// beginCycle starts a cycle's merge over every non-empty bucket. O(non-empty
// buckets). (Their order in the heap does not matter: queue order is
// total, so the merge yields the same sequence whatever it is.)
func (q *pendingQueues) beginCycle() {
	q.merge = append(q.merge[:0], q.nonEmpty...)
	for i := len(q.merge)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

// bucketBefore orders buckets by their first jobs.
func (q *pendingQueues) bucketBefore(a, b int32) bool { return q.less(q.head(a), q.head(b)) }

func (q *pendingQueues) down(i int) { siftDown(q.merge, i, q.bucketBefore) }

func (q *pendingQueues) up(i int) { siftUp(q.merge, i, q.bucketBefore) }

// nextBucket takes the bucket whose first job comes next in queue order out
// of the cycle's merge. The caller either places that job (popHead puts
// the bucket back) or leaves the bucket aside for the rest of the cycle.
func (q *pendingQueues) nextBucket() (int32, bool) {
	if len(q.merge) == 0 {
		return 0, false
	}
	b := q.merge[0]
	last := len(q.merge) - 1
	q.merge[0] = q.merge[last]
	q.merge = q.merge[:last]
	q.down(0)
	return b, true
}

// popHead removes bucket b's first job (it was placed) and, if the bucket
// still holds jobs, returns it to the cycle's merge.
func (q *pendingQueues) popHead(b int32) {
	q.removeHead(b)
	if len(q.buckets[b].jobs) > 0 {
		q.merge = append(q.merge, b)
		q.up(len(q.merge) - 1)
	}
}
