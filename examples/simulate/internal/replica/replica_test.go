package replica

import (
	"hash/fnv"
	"testing"

	"pgregory.net/rapid"
)

// Salt 0 is the plain FNV-1a assignment the default run uses.
func TestTeamSaltZeroIsPlainFNV(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.String().Draw(t, "name")
		teams := rapid.IntRange(2, 16).Draw(t, "teams")
		h := fnv.New32a()
		h.Write([]byte(name))
		if got, want := Team(name, teams, 0), int(h.Sum32()%uint32(teams)); got != want {
			t.Fatalf("Team(%q, %d, 0) = %d, FNV-1a gives %d", name, teams, got, want)
		}
		salt := rapid.Uint32().Draw(t, "salt") | 1
		if got := Team(name, teams, salt); got < 0 || got >= teams {
			t.Fatalf("salted Team = %d, out of range", got)
		}
	})
	if Team("x", 1, 5) != 0 || Team("x", 0, 0) != 0 {
		t.Error("one team (or none) must give 0")
	}
}

func TestSaltMovesJobs(t *testing.T) {
	moved := 0
	for i := range 1000 {
		name := "job-" + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
		if Team(name, 4, 0) != Team(name, 4, 12345) {
			moved++
		}
	}
	// About three in four should move, independently: a salt that moved
	// none, or all (a relabelling of the teams), would be useless.
	if moved < 650 || moved > 850 {
		t.Errorf("a salt moved %d of 1000 jobs, want about 750", moved)
	}
}

func TestJitterBoundsAndDeterminism(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		job := rapid.IntRange(0, 1<<20).Draw(t, "job")
		m := rapid.Int64Range(0, 3600).Draw(t, "max")
		j := Jitter(seed, job, m)
		if j < -m || j > m || j != Jitter(seed, job, m) {
			t.Fatalf("Jitter(%d, %d, %d) = %d", seed, job, m, j)
		}
	})
	// Both ends are reachable and the mean is near 0.
	var sum int64
	lo, hi := false, false
	for job := range 20000 {
		j := Jitter(7, job, 3)
		sum += j
		lo, hi = lo || j == -3, hi || j == 3
	}
	if !lo || !hi || sum > 600 || sum < -600 {
		t.Errorf("jitter over [-3, 3]: ends %v %v, sum %d", lo, hi, sum)
	}
}

func TestFor(t *testing.T) {
	if p := For(1, 1, 600); !p.Identity() {
		t.Errorf("base seed: %+v, want the identity replicate", p)
	}
	p := For(2, 1, 600)
	if p.Identity() || p.NodeSeed == 0 || p.TeamSalt == 0 || p.JitterMax != 600 {
		t.Errorf("seed 2: %+v", p)
	}
	if For(2, 1, 600) != p {
		t.Error("For is not deterministic")
	}
	if q := For(3, 1, -5); q.JitterMax != 0 {
		t.Errorf("negative jitter: %+v", q)
	}
	seeds := map[uint64]bool{}
	for s := int64(2); s < 200; s++ {
		seeds[For(s, 1, 0).NodeSeed] = true
	}
	if len(seeds) != 198 {
		t.Errorf("198 replicates drew only %d node-sample seeds", len(seeds))
	}
	if NodeRand(0) != nil || NodeRand(1) == nil {
		t.Error("NodeRand: nil exactly for seed 0")
	}
}
