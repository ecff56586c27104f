package cluster

import "fmt"

// fitMemory remembers requests that fitted no leaf of a freeIndex
// (no node of a cluster), so that asking again costs O(1) plus the leaves
// freed since, instead of a search. First fit over a freeIndex finds a leaf in
// O(log n) when one resource is the constraint, but a request whose
// per-resource maxima fit while no single leaf does (a fragmented cluster:
// free GPUs on some nodes, free cores on others) makes it visit every
// leaf, and a scheduler trying victims asks the same question again for
// each of them.
//
// The memory keeps a log of the leaves whose resources have grown (a task
// left them: a release, an eviction, the undo of a placement), and for
// each remembered request the length of the log when it fitted no leaf.
// Whatever happened since, a leaf not logged since then has no more free
// than it had, so the request fits none of them: only the leaves logged
// since need an exact test (fitMemory.Recall returns them). Rollbacks
// need no care, as long as every growth is logged.
//
// It holds 64 requests (a new one takes the slot of the one it shares a
// hash slot with) and at most 16,384 logged leaves, after which it
// forgets everything and starts over: its memory is bounded whatever the
// history. Recall, Remember and Grew cost O(1) (Grew amortised) and do
// not allocate once the log has its working size. The zero fitMemory
// remembers nothing and is ready for use. A fitMemory is not safe for
// concurrent use.
type fitMemory struct {
	entries [fitMemorySize]noFit
	grown   []int32 // leaves whose free resources grew, oldest first
	// epoch numbers the log's lives: an entry is live when it holds
	// epoch+1 (so that the zero memory holds none); live counts them.
	epoch uint32
	live  int
	scan  int // the most logged leaves Recall returns, at least 64
}

const (
	fitMemorySize = 64      // requests remembered, a power of two
	fitLogLimit   = 1 << 14 // logged leaves before the memory starts over
)

// noFit says that key fitted no leaf when the log had pos entries, in
// the memory's epoch epoch-1.
type noFit struct {
	key   Resources
	epoch uint32
	pos   int32
}

// newFitMemory returns an empty memory for an index of the given number
// of leaves. Recall returns at most max(64, leaves/8) logged leaves:
// beyond that a search is the cheaper answer.
func newFitMemory(leaves int) *fitMemory {
	return &fitMemory{scan: leaves / 8}
}

// Recall reports whether key is remembered as fitting no leaf, and if so
// returns the leaves logged since (oldest first, possibly repeated): key
// fits no other leaf now. The lowest-numbered of them that key fits is
// the first fit; when it fits none, fitMemory.Remember moves the
// request to the end of the log. ok is false, and a search is needed,
// when key is not remembered or when more leaves were logged since than
// the scan limit (64 for the zero memory). The slice aliases the log:
// read it before the next Grew. O(1).
func (m *fitMemory) Recall(key Resources) (since []int32, ok bool) {
	e := &m.entries[key.hash()&(fitMemorySize-1)]
	if e.epoch != m.epoch+1 || e.key != key || len(m.grown)-int(e.pos) > max(m.scan, 64) {
		return nil, false
	}
	return m.grown[e.pos:], true
}

// Remember records that key fits no leaf now. O(1).
func (m *fitMemory) Remember(key Resources) {
	e := &m.entries[key.hash()&(fitMemorySize-1)]
	if e.epoch != m.epoch+1 {
		m.live++
	}
	*e = noFit{key: key, epoch: m.epoch + 1, pos: int32(len(m.grown))}
}

// Grew records that leaf i's free resources grew. Call it for every
// growth, before the next Recall. Nothing is logged while no request is
// remembered. O(1) amortised.
func (m *fitMemory) Grew(i int32) {
	if m.live == 0 {
		return
	}
	if len(m.grown) == fitLogLimit {
		m.grown = m.grown[:0]
		m.live = 0
		if m.epoch++; m.epoch+1 == 0 { // every entry is forgotten
			m.entries = [fitMemorySize]noFit{}
			m.epoch = 0
		}
		return
	}
	m.grown = append(m.grown, i)
}

// Check verifies the memory's invariant against the exact test fits (does
// key fit leaf i now?) over leaves leaves: every remembered request fits
// no leaf but those logged since it was remembered. It returns the first
// violation, or nil. O(fitMemorySize · (leaves + log)); for tests.
func (m *fitMemory) Check(leaves int, fits func(key Resources, i int) bool) error {
	if len(m.grown) > fitLogLimit {
		return fmt.Errorf("fit memory: %d logged leaves, limit %d", len(m.grown), fitLogLimit)
	}
	live := 0
	logged := make([]bool, leaves)
	for _, e := range m.entries {
		if e.epoch != m.epoch+1 {
			continue
		}
		live++
		if int(e.pos) > len(m.grown) {
			return fmt.Errorf("fit memory: %v at %d of %d logged leaves", e.key, e.pos, len(m.grown))
		}
		clear(logged)
		for _, i := range m.grown[e.pos:] {
			if int(i) < 0 || int(i) >= leaves {
				return fmt.Errorf("fit memory: logged leaf %d of %d", i, leaves)
			}
			logged[i] = true
		}
		for i := range leaves {
			if !logged[i] && fits(e.key, i) {
				return fmt.Errorf("fit memory: %v is remembered as fitting no leaf, but fits leaf %d, not logged since", e.key, i)
			}
		}
	}
	if live != m.live {
		return fmt.Errorf("fit memory: %d live entries, counted %d", live, m.live)
	}
	return nil
}

// hash spreads a request over the memory's slots.
func (r Resources) hash() uint64 {
	h := uint64(r.MilliCPU)*0x9E3779B97F4A7C15 ^ uint64(r.Memory)*0xC2B2AE3D27D4EB4F ^
		uint64(r.GPU)*0x165667B19E3779F9
	return h ^ h>>29
}
