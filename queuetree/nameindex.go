package queuetree

import "hash/maphash"

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
	return x
}
