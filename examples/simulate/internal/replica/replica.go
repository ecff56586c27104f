package replica

import "math/rand/v2"

// Params are the draws of one replicate.
type Params struct {
	// NodeSeed seeds the stratified node sample's draw (see Sample); 0
	// is the identity replicate's evenly spaced sample.
	NodeSeed uint64 `json:"node_seed"`
	TeamSalt uint32 `json:"team_salt"`
	// JitterSeed seeds Jitter; JitterMax bounds it (seconds, 0: none).
	JitterSeed uint64 `json:"jitter_seed"`
	JitterMax  int64  `json:"arrival_jitter_s"`
}

// Identity reports whether p is the default run's replicate.
func (p Params) Identity() bool { return p.NodeSeed == 0 && p.TeamSalt == 0 && p.JitterMax == 0 }

// For returns the replicate of seed with arrival jitter up to jitterMax
// seconds: the identity replicate when seed equals base, otherwise draws
// from a PCG generator seeded with seed.
func For(seed, base int64, jitterMax int64) Params {
	if seed == base {
		return Params{}
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x7265706c69636100)) // "replica\0"
	return Params{
		NodeSeed:   r.Uint64() | 1,
		TeamSalt:   TeamSalt(r),
		JitterSeed: r.Uint64(),
		JitterMax:  max(jitterMax, 0),
	}
}

// NodeRand returns the generator of the node sample's draw for NodeSeed
// seed: nil for 0, the identity replicate's evenly spaced sample.
func NodeRand(seed uint64) *rand.Rand {
	if seed == 0 {
		return nil
	}
	return rand.New(rand.NewPCG(seed, 0x6e6f646573000000)) // "nodes\0\0\0"
}

// TeamSalt draws a non-zero salt for Team.
func TeamSalt(r *rand.Rand) uint32 { return r.Uint32() | 1 }

// Team assigns a job named name to one of teams team queues. With salt 0
// it is the 32-bit FNV-1a hash of the name modulo teams (the default
// assignment); otherwise the hash is XORed with the salt and mixed
// (SplitMix64) before the modulo. The mixing matters: FNV-1a's low bits
// depend only on the low bits of its state, so merely prefixing a salt
// would relabel the teams, moving every job together. teams <= 1 gives 0.
func Team(name string, teams int, salt uint32) int {
	if teams <= 1 {
		return 0
	}
	const offset, prime = 2166136261, 16777619
	h := uint32(offset)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * prime
	}
	if salt == 0 {
		return int(h % uint32(teams))
	}
	return int(splitmix(uint64(h)^uint64(salt)<<32) % uint64(teams))
}

// Jitter returns the arrival shift of job index job: uniform in
// [−jitterMax, +jitterMax] seconds, a function of (seed, job) only, so it
// does not depend on the order jobs are visited in. 0 when jitterMax <= 0.
func Jitter(seed uint64, job int, jitterMax int64) int64 {
	if jitterMax <= 0 {
		return 0
	}
	x := splitmix(seed ^ splitmix(uint64(job)))
	return int64(x%uint64(2*jitterMax+1)) - jitterMax
}

// splitmix is the SplitMix64 finalizer: a bijective mix of x's bits.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
