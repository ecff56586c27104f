package backoff_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// TestTimeBasedRotation drives KEP-8522's two-job case through both halves
// of the policy: eligibility classifies, requeue stamps the queue-order
// timestamp. Job a holds the only slot; b waits. After M, b preempts a (an
// expired pick). a is re-stamped with its preemption instant, so b is not
// "newer" than a and a must wait until b in turn has run longer than M —
// the slot rotates instead of changing hands every cycle.
func TestTimeBasedRotation(t *testing.T) {
	m := 2 * time.Hour
	policy := timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: &m}
	order := backoff.QueueOrder{}
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

	a := backoff.QueueEntry{ID: "a", Priority: 5, Created: t0}
	b := backoff.QueueEntry{ID: "b", Priority: 5, Created: t0.Add(5 * time.Minute)}
	aReserved := t0

	// b, pending, looks at a at exactly M: not yet, then 1ns later: expired.
	req := func(e backoff.QueueEntry) timebased.Request {
		return timebased.Request{Priority: e.Priority, Timestamp: order.Timestamp(e)}
	}
	if d := policy.Classify(req(b), timebased.Candidate{ID: "a", Priority: 5, Reserved: aReserved}, t0.Add(m)); d.Allowed {
		t.Fatalf("a preemptible at exactly M: %v", d.Reason)
	}
	now := t0.Add(m + time.Nanosecond)
	if d := policy.Classify(req(b), timebased.Candidate{ID: "a", Priority: 5, Reserved: aReserved}, now); d.Reason != "expired" {
		t.Fatalf("a at M+1ns: class %v, want expired", d.Reason)
	}

	// b takes the slot; a is requeued, stamped as time-based preempted.
	bReserved := now
	a.SamePriorityPreempted = now
	if got := order.Timestamp(a); !got.Equal(now) {
		t.Fatalf("a's queue-order timestamp = %v, want its preemption instant %v", got, now)
	}
	if d := policy.Classify(req(a), timebased.Candidate{ID: "b", Priority: 5, Reserved: bReserved}, now.Add(time.Second)); d.Allowed {
		t.Fatalf("a preempts b straight back (class %v): the slot ping-pongs", d.Reason)
	}
	// …until b has held the slot longer than M.
	if d := policy.Classify(req(a), timebased.Candidate{ID: "b", Priority: 5, Reserved: bReserved}, bReserved.Add(m+time.Nanosecond)); d.Reason != "expired" {
		t.Fatalf("b after M: class %v, want expired", d.Reason)
	}

	// Without the re-stamp a is older than b's reservation: b counts as newer
	// and a would take the slot back at once (the behaviour the field fixes).
	a.SamePriorityPreempted = time.Time{}
	if d := policy.Classify(req(a), timebased.Candidate{ID: "b", Priority: 5, Reserved: bReserved}, now.Add(time.Second)); d.Reason != "newer" {
		t.Fatalf("without the re-stamp: class %v, want newer", d.Reason)
	}
}

// TestNewerPickRotation: a "newer" pick needs the same re-stamp. Job c was
// admitted while b was already waiting, so b may preempt it at once; c,
// requeued with its creation time, would then find b's fresh reservation
// newer than itself and preempt b straight back.
func TestNewerPickRotation(t *testing.T) {
	m := 2 * time.Hour
	policy := timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: &m}
	order := backoff.QueueOrder{}
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	req := func(e backoff.QueueEntry) timebased.Request {
		return timebased.Request{Priority: e.Priority, Timestamp: order.Timestamp(e)}
	}

	b := backoff.QueueEntry{ID: "b", Priority: 5, Created: t0}
	c := backoff.QueueEntry{ID: "c", Priority: 5, Created: t0.Add(time.Minute)}
	cReserved := t0.Add(10 * time.Minute) // admitted while b waited (it fit, b did not)
	now := t0.Add(20 * time.Minute)
	if d := policy.Classify(req(b), timebased.Candidate{ID: "c", Priority: 5, Reserved: cReserved}, now); d.Reason != "newer" {
		t.Fatalf("c for b: class %v, want newer", d.Reason)
	}
	bReserved := now
	c.SamePriorityPreempted = now
	if d := policy.Classify(req(c), timebased.Candidate{ID: "b", Priority: 5, Reserved: bReserved}, now.Add(time.Second)); d.Allowed {
		t.Fatalf("c preempts b straight back (class %v)", d.Reason)
	}
	c.SamePriorityPreempted = time.Time{}
	if d := policy.Classify(req(c), timebased.Candidate{ID: "b", Priority: 5, Reserved: bReserved}, now.Add(time.Second)); d.Reason != "newer" {
		t.Fatalf("without the re-stamp: class %v, want newer (the ping-pong)", d.Reason)
	}
}
