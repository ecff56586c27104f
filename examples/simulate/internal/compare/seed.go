package compare

import (
	"encoding/binary"
	"hash/fnv"
)

// intervalSeed is the resampling seed of one metric's interval: a hash of
// the base seed, the metric's name and the runs' seeds, and nothing else.
// The arm's position, the metric's position and the other arms or sweep
// points of the command play no part, so the same per-seed values of a
// metric get the same interval from -runs, from -runs with other policies
// and from -sweep. Cost O(len(seeds) + len(metric)).
func intervalSeed(base uint64, metric string, seeds []int64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], base)
	h.Write(b[:])
	h.Write([]byte(metric))
	for _, s := range seeds {
		binary.LittleEndian.PutUint64(b[:], uint64(s))
		h.Write(b[:])
	}
	return h.Sum64()
}
