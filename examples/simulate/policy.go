package main

// policy is what distinguishes one compared variant from another. The
// simulator owns placement and the event loop; a policy decides which running
// jobs a pending job may evict (and in which order), may run a pre-pass
// before each cycle (the requeue engine), and may hold pending jobs back
// (backoff). Policies built on tenure delegate those decisions to the
// library; see policies.go.
type policy interface {
	// beforeCycle runs at the start of every scheduling cycle.
	beforeCycle(s *sim)
	// admissible reports whether pending job id may be placed now.
	admissible(s *sim, id int32) bool
	// mayPreempt is a cheap check that job p could have any candidate at all.
	mayPreempt(s *sim, p int32) bool
	// candidate reports whether running job v may be evicted to make room for
	// pending job p now; when not, until > now is the earliest instant the
	// answer may change (0 when only other events can change it).
	candidate(s *sim, p, v int32) (ok bool, until int64)
	// equalPriorityVictims reports whether candidate may ever allow a
	// victim of the preemptor's own priority.
	equalPriorityVictims() bool
	// victimOrder orders candidates: victims tried first sort first.
	victimOrder(s *sim, p, a, b int32) int
	// started is told when job id starts running, stopped when it stops
	// (completion or eviction).
	started(s *sim, id int32)
	stopped(s *sim, id int32)
	// timedOut is told that job id's start failed; it may move the job's
	// queue-order timestamp (s.st[id].queueTS) and delay its next start, or
	// give up on it (deactivated).
	timedOut(s *sim, id int32) (deactivated bool)
}

// evictionNoter is implemented by policies that want to record why each
// victim was chosen (the time-based policy counts its candidate classes).
type evictionNoter interface {
	noteEviction(s *sim, preemptor, victim int32)
}

// priorityPolicy is plain priority preemption: a pending job may evict any
// running job of strictly lower priority; victims are taken lowest priority
// first, then youngest (least work lost), then by ID. Same-priority jobs never
// preempt each other and nothing is protected.
type priorityPolicy struct{}

func (priorityPolicy) beforeCycle(*sim)                {}
func (priorityPolicy) admissible(*sim, int32) bool     { return true }
func (priorityPolicy) started(*sim, int32)             {}
func (priorityPolicy) stopped(*sim, int32)             {}
func (priorityPolicy) timedOut(*sim, int32) bool       { return false }
func (priorityPolicy) equalPriorityVictims() bool      { return false }
func (priorityPolicy) mayPreempt(s *sim, p int32) bool { return s.lowerRunning(p) }

func (priorityPolicy) candidate(s *sim, p, v int32) (bool, int64) {
	return s.jobs[v].Class < s.jobs[p].Class, 0
}

func (priorityPolicy) victimOrder(s *sim, _, a, b int32) int { return youngestLowestFirst(s, a, b) }

// youngestLowestFirst orders victims lowest priority first, then the most
// recently started, then by ID.
func youngestLowestFirst(s *sim, a, b int32) int {
	ca, cb := s.jobs[a].Class, s.jobs[b].Class
	if ca != cb {
		return int(ca) - int(cb)
	}
	sa, sb := s.st[a].start, s.st[b].start
	if sa != sb {
		if sa > sb {
			return -1
		}
		return 1
	}
	return int(a) - int(b)
}

// lowerRunning reports whether any job of lower priority than p is running.
func (s *sim) lowerRunning(p int32) bool {
	for c := Class(0); c < s.jobs[p].Class; c++ {
		if s.runningN[c] > 0 {
			return true
		}
	}
	return false
}
