package queuetree

import (
	"hash/maphash"
	"slices"
)

// nameSeed seeds the hash of every name index; one per process.
var nameSeed = maphash.MakeSeed()

// nameIndex maps queue names to IDs: an open-addressing hash table with
// linear probing, at most half full. Each slot holds the top 32 bits of
// the name's hash and a value (0: empty slot); the names themselves are
// not stored but read from the array the values index (the tree's names
// by ID), so the table holds no pointers and the garbage collector never
// scans it. A lookup hashes the name once, then usually reads one slot
// and compares one string.
type nameIndex struct {
	slots []uint64
	mask  uint64
	used  int // slots not empty: names, and the markers of removed ones
}

// newNameIndex returns an empty index with room for n names.
func newNameIndex(n int) nameIndex {
	size := 8
	for size < 2*n {
		size <<= 1
	}
	return nameIndex{slots: make([]uint64, size), mask: uint64(size - 1)}
}

// hashName hashes a queue name for a nameIndex.
func hashName(name string) uint64 { return maphash.String(nameSeed, name) }

// slotOf packs a hash's tag and a value (non-zero, below 2^32) into a slot.
func slotOf(h uint64, v uint32) uint64 { return h&^0xffffffff | uint64(v) }

// lookup returns the value stored for name, whose names are names[value],
// or 0 when name is absent. O(1) expected, no allocation.
func (x *nameIndex) lookup(names []string, name string) uint32 {
	if len(x.slots) == 0 {
		return 0
	}
	h := hashName(name)
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		s := x.slots[i]
		if s == 0 {
			return 0
		}
		if s>>32 == h>>32 && names[uint32(s)] == name {
			return uint32(s)
		}
	}
}

// insertQueue stores value v (an input position plus one) for
// queues[v-1].Name unless that name is already stored, and reports whether
// it stored it. Values index queues from 1: a value v names queues[v-1].
func (x *nameIndex) insertQueue(queues []Queue, v uint32) bool {
	name := queues[v-1].Name
	h := hashName(name)
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		s := x.slots[i]
		if s == 0 {
			x.slots[i] = slotOf(h, v)
			return true
		}
		if s>>32 == h>>32 && queues[uint32(s)-1].Name == name {
			return false
		}
	}
}

// lookupQueue is lookup for an index whose values are input positions
// plus one, as insertQueue stores them.
func (x *nameIndex) lookupQueue(queues []Queue, name string) uint32 {
	h := hashName(name)
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		s := x.slots[i]
		if s == 0 {
			return 0
		}
		if s>>32 == h>>32 && queues[uint32(s)-1].Name == name {
			return uint32(s)
		}
	}
}

// indexNames builds the index of names[2:], each name's value its
// position (its ID); the names must be distinct and non-empty.
func indexNames(names []string) nameIndex {
	x := newNameIndex(len(names))
	for id := 2; id < len(names); id++ {
		h := hashName(names[id])
		i := h & x.mask
		for x.slots[i] != 0 {
			i = (i + 1) & x.mask
		}
		x.slots[i] = slotOf(h, uint32(id))
	}
	x.used = max(len(names)-2, 0)
	return x
}

// removedMark is the slot left where a removed name was (see patched):
// not empty, so probes pass over it, and of value 0, whose name (None's,
// "") no lookup matches.
const removedMark = 1 << 32

// patched returns a copy of x for a patched tree: each value, an ID of
// the old tree, becomes newID[value], a removed name's slot becomes
// removedMark, and the names of the nodes from addedFrom on (the added
// queues) are inserted with their new IDs; names are the new tree's, by
// ID. When names and marks would fill more than half the copy, it
// returns a fresh index of names instead. O(slots) integer work plus a
// hash per added name.
func (x *nameIndex) patched(names []string, newID []int32, addedFrom int) nameIndex {
	adds := len(newID) - addedFrom
	if 2*(x.used+adds) > len(x.slots) {
		return indexNames(names)
	}
	y := nameIndex{slots: slices.Clone(x.slots), mask: x.mask, used: x.used + adds}
	for i, s := range y.slots {
		if s == 0 {
			continue
		}
		if v := newID[uint32(s)]; v != 0 {
			y.slots[i] = slotOf(s, uint32(v))
		} else {
			y.slots[i] = removedMark
		}
	}
	for _, id := range newID[addedFrom:] {
		h := hashName(names[id])
		i := h & y.mask
		for y.slots[i] != 0 {
			i = (i + 1) & y.mask
		}
		y.slots[i] = slotOf(h, uint32(id))
	}
	return y
}

// shifted returns a copy of x for a one-leaf patch at k (see leaf.go):
// with delta 1 every value from k on grows by one and the name names[k]
// is inserted with value k; with delta -1 the slot of removed (the name
// of the queue k) becomes removedMark and every value after k shrinks by
// one. names are the patched tree's, by ID. An insertion that would fill
// more than half the copy returns a fresh index of names instead.
// O(slots) integer work, without a branch per slot, plus a hash of the
// added or removed name.
func (x *nameIndex) shifted(names []string, k ID, delta int, removed string) nameIndex {
	if delta > 0 && 2*(x.used+1) > len(x.slots) {
		return indexNames(names)
	}
	y := nameIndex{slots: slices.Clone(x.slots), mask: x.mask, used: x.used}
	if delta < 0 {
		h := hashName(removed)
		i := h & y.mask
		for uint32(y.slots[i]) != uint32(k) {
			i = (i + 1) & y.mask
		}
		y.slots[i] = removedMark
	}
	// A value is in the low 32 bits, at least 2 when it is k or more, so
	// adding delta to the whole slot moves the value and keeps the tag.
	kv, d := uint32(k), uint64(int64(delta))
	for i, s := range y.slots {
		var move uint64
		if uint32(s) >= kv {
			move = d
		}
		y.slots[i] = s + move
	}
	if delta > 0 {
		h := hashName(names[k])
		i := h & y.mask
		for y.slots[i] != 0 {
			i = (i + 1) & y.mask
		}
		y.slots[i] = slotOf(h, uint32(k))
		y.used++
	}
	return y
}

// moved returns a copy of x for a queue moved from ID k to ID j (see
// withMoved): the value k becomes j, and the values between slide by one
// toward k, as the IDs did. The names are where they were, so no slot
// moves. O(slots) integer work.
func (x *nameIndex) moved(k, j ID) nameIndex {
	y := nameIndex{slots: slices.Clone(x.slots), mask: x.mask, used: x.used}
	lo, hi, d := uint32(j), uint32(k)-1, uint64(1)
	if j > k {
		lo, hi, d = uint32(k)+1, uint32(j), ^uint64(0) // -1, added modulo 2^64
	}
	kv := uint32(k)
	for i, s := range y.slots {
		switch v := uint32(s); {
		case v == kv:
			y.slots[i] = slotOf(s, uint32(j))
		case v >= lo && v <= hi:
			y.slots[i] = s + d
		}
	}
	return y
}
