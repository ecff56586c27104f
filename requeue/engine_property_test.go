package requeue

import (
	"fmt"
	"github.com/tenurepolicy/tenure/eligibility"
	"maps"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// naiveRun is the engine's oracle (and the benchmark's baseline): the same
// rules written the obvious way, with a deep copy of the whole model per
// attempt instead of a journal. It returns the result and the final model.
func naiveRun(now time.Time, cfg EngineConfig, in EngineInput, c *Cluster) (EngineResult, *Cluster) {
	var res EngineResult
	res.Outcomes = []Outcome{}
	byJob := map[string]map[string]bool{}
	for _, n := range in.Nominations {
		if byJob[n.Job] == nil {
			byJob[n.Job] = map[string]bool{}
		}
		byJob[n.Job][n.Nominator] = true
	}
	victims := map[string]Victim{}
	for _, v := range in.Victims {
		if _, ok := victims[v.ID]; !ok {
			victims[v.ID] = v
		}
	}
	var known []Victim
	for _, job := range slices.Sorted(maps.Keys(byJob)) {
		if v, ok := victims[job]; ok {
			known = append(known, v)
		} else {
			res.Outcomes = append(res.Outcomes, Outcome{Job: job, Nominators: slices.Sorted(maps.Keys(byJob[job])), Kind: OutcomeSkipped, Decision: eligibility.Decision{Reason: ReasonUnknownVictim}})
		}
	}
	sort.SliceStable(known, func(a, b int) bool {
		va, vb := known[a], known[b]
		if va.Priority != vb.Priority {
			return va.Priority < vb.Priority
		}
		oa, ob := time.Duration(0), time.Duration(0)
		if !va.Start.IsZero() {
			oa = now.Sub(va.Start) - va.Expected
		}
		if !vb.Start.IsZero() {
			ob = now.Sub(vb.Start) - vb.Expected
		}
		if oa != ob {
			return oa > ob
		}
		return va.ID < vb.ID
	})
	conts := slices.Clone(in.Contenders)
	sort.SliceStable(conts, func(a, b int) bool {
		ca, cb := conts[a], conts[b]
		if ca.Priority != cb.Priority {
			return ca.Priority > cb.Priority
		}
		if !ca.Queued.Equal(cb.Queued) {
			return ca.Queued.Before(cb.Queued)
		}
		return ca.ID < cb.ID
	})
	used := map[string]bool{}   // contender IDs placed, failed, or evicted
	placed := map[string]bool{} // contender IDs placed this pass
	seen := map[string]bool{}
	cur := c.Clone()
	for k, v := range known {
		out := Outcome{Job: v.ID, Nominators: slices.Sorted(maps.Keys(byJob[v.ID]))}
		var stop eligibility.Reason
		if cfg.MaxVictims > 0 && res.Commits >= cfg.MaxVictims {
			stop = ReasonMaxVictims
		} else if cfg.MaxAttempts > 0 && res.Attempts >= cfg.MaxAttempts {
			stop = ReasonMaxAttempts
		}
		delay := cfg.DefaultDelay
		if v.HasRequeueDelay {
			delay = v.RequeueDelay
		}
		switch {
		case stop != "":
		case placed[v.ID]:
			out.Kind, out.Reason = OutcomeSkipped, ReasonPlacedThisPass
		case now.Before(v.NotBefore):
			out.Kind, out.Reason, out.Until = OutcomeSkipped, eligibility.ReasonCooldown, v.NotBefore
		case delay < 0:
			out.Kind, out.Reason = OutcomeSkipped, ReasonInvalidDelay
		default:
			var trial *Cluster
			var got []string
			eligible, allowed, bounded := 0, 0, false
			var deny eligibility.Reason
			var until time.Time
			clear(seen)
			for _, cn := range conts {
				if seen[cn.ID] {
					continue // duplicate contender ID
				}
				seen[cn.ID] = true
				if used[cn.ID] || cn.ID == v.ID || cn.Priority <= v.Priority {
					continue
				}
				eligible++
				ok := true
				for _, f := range cfg.Filters {
					if vd := f.FilterVictim(now, &v, &cn); !vd.Allowed {
						if deny == "" {
							deny = vd.Reason
						}
						if !vd.Until.IsZero() && (until.IsZero() || vd.Until.Before(until)) {
							until = vd.Until
						}
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				allowed++
				if cfg.MaxAttempts > 0 && res.Attempts >= cfg.MaxAttempts {
					bounded = true
					break
				}
				if trial == nil {
					trial = cur.Clone()
					if err := trial.Evict(nil, v.ID); err != nil {
						out.Kind, out.Reason, out.Err = OutcomeSkipped, ReasonEvictError, err
						break
					}
				}
				try := trial.Clone()
				res.Attempts++
				fits, err := try.Place(nil, cn.ID)
				if err != nil {
					used[cn.ID] = true
					res.ContenderErrors = append(res.ContenderErrors, ContenderError{cn.ID, err})
					continue
				}
				if fits {
					trial = try
					got = append(got, cn.ID)
					used[cn.ID], placed[cn.ID] = true, true
				}
			}
			switch {
			case out.Kind != 0:
			case len(got) > 0:
				cur = trial
				res.Commits++
				used[v.ID] = true
				nb := NotBeforeCeil(now.Add(delay))
				out.Kind, out.Allowed, out.Reason, out.Contenders, out.NotBefore, out.Annotation = OutcomeCommitted, true, ReasonCommitted, got, nb, FormatNotBefore(nb)
			case bounded:
				stop = ReasonMaxAttempts
			case eligible == 0:
				out.Kind, out.Reason = OutcomeKept, ReasonNoContender
			case allowed == 0:
				out.Kind, out.Reason, out.Until = OutcomeSkipped, deny, until
			default:
				out.Kind, out.Reason = OutcomeKept, ReasonNoFit
			}
		}
		if stop != "" {
			for _, rest := range known[k:] {
				res.Outcomes = append(res.Outcomes, Outcome{Job: rest.ID, Nominators: slices.Sorted(maps.Keys(byJob[rest.ID])), Kind: OutcomeDeferred, Decision: eligibility.Decision{Reason: stop}})
			}
			break
		}
		if out.Kind == OutcomeSkipped && !out.Until.IsZero() && (res.Wake.IsZero() || out.Until.Before(res.Wake)) {
			res.Wake = out.Until
		}
		res.Outcomes = append(res.Outcomes, out)
	}
	return res, cur
}

// engineWorld is a random cluster, workload and pass input.
type engineWorld struct {
	cluster   *Cluster
	in        EngineInput
	cfg       EngineConfig
	protected denyFilter
	prio      map[string]int32
}

func drawWorld(t *rapid.T) engineWorld {
	var nodes []Node
	for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
		nodes = append(nodes, Node{Name: fmt.Sprint("n", i), Capacity: Resources{
			MilliCPU: rapid.Int64Range(1, 8).Draw(t, "cpu") * 1000,
			GPU:      rapid.Int64Range(0, 4).Draw(t, "gpu"),
		}})
	}
	c, err := NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	w := engineWorld{cluster: c, protected: denyFilter{}, prio: map[string]int32{}}
	now := t0.Add(10 * time.Hour)
	nJobs := rapid.IntRange(0, 20).Draw(t, "jobs")
	for i := range nJobs {
		id := fmt.Sprint("j", i)
		var tasks []Resources
		for range rapid.IntRange(1, 3).Draw(t, "tasks") {
			tasks = append(tasks, Resources{MilliCPU: rapid.Int64Range(0, 4).Draw(t, "tcpu") * 1000, GPU: rapid.Int64Range(0, 2).Draw(t, "tgpu")})
		}
		minTasks := rapid.IntRange(0, len(tasks)).Draw(t, "min")
		if err := c.AddJob(nil, ClusterJob{ID: id, Tasks: tasks, MinTasks: minTasks}); err != nil {
			t.Fatal(err)
		}
		prio := rapid.Int32Range(0, 3).Draw(t, "prio")
		w.prio[id] = prio
		if rapid.Bool().Draw(t, "start") {
			_, _ = c.Place(nil, id) // running if it fits
		}
		if c.Running(id) {
			if rapid.IntRange(0, 3).Draw(t, "nominate") > 0 {
				v := Victim{ID: id, Priority: prio, Start: t0.Add(time.Duration(rapid.IntRange(0, 9).Draw(t, "startH")) * time.Hour), Expected: time.Hour}
				switch rapid.IntRange(0, 5).Draw(t, "gate") {
				case 0:
					v.NotBefore = now.Add(time.Duration(rapid.IntRange(-2, 2).Draw(t, "nb")) * time.Minute)
				case 1:
					v.RequeueDelay, v.HasRequeueDelay = time.Duration(rapid.IntRange(-1, 30).Draw(t, "delay"))*time.Minute, true
				case 2:
					w.protected[id] = true
				}
				w.in.Victims = append(w.in.Victims, v)
				for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"expectedruntime", "proportion", "x"}), 1, 3, rapid.ID[string]).Draw(t, "by") {
					w.in.Nominations = append(w.in.Nominations, VictimNomination{Job: id, Nominator: name})
				}
			}
		} else if rapid.IntRange(0, 4).Draw(t, "contend") > 0 {
			w.in.Contenders = append(w.in.Contenders, Contender{ID: id, Priority: prio, Queued: t0.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "queued")) * time.Minute)})
		}
	}
	// Bad data: nominations of unknown or pending jobs, unknown contenders,
	// duplicate nominations.
	if rapid.Bool().Draw(t, "ghosts") {
		w.in.Nominations = append(w.in.Nominations, VictimNomination{Job: "ghost", Nominator: "x"})
		w.in.Contenders = append(w.in.Contenders, Contender{ID: "phantom", Priority: 3})
		if nJobs > 0 {
			id := fmt.Sprint("j", rapid.IntRange(0, nJobs-1).Draw(t, "pendingVictim"))
			w.in.Nominations = append(w.in.Nominations, VictimNomination{Job: id, Nominator: "x"})
			w.in.Victims = append(w.in.Victims, Victim{ID: id, Priority: w.prio[id]})
		}
	}
	if len(w.in.Nominations) > 0 && rapid.Bool().Draw(t, "dup") {
		w.in.Nominations = append(w.in.Nominations, w.in.Nominations[0])
	}
	w.cfg = EngineConfig{
		DefaultDelay: time.Duration(rapid.IntRange(0, 20).Draw(t, "default")) * time.Minute,
		MaxVictims:   rapid.IntRange(0, 4).Draw(t, "maxVictims"),
		MaxAttempts:  rapid.IntRange(0, 8).Draw(t, "maxAttempts"),
		Filters:      []VictimFilter{w.protected},
	}
	return w
}

// TestEngineProperties checks the engine against its naive oracle and the
// properties of issue 5 on random clusters and workloads.
func TestEngineProperties(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		initial := w.cluster.Clone()
		e, err := NewEngine(w.cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(now, w.in, w.cluster)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.cluster.check(); err != nil {
			t.Fatal(err)
		}
		// Every attempt was committed or rolled back: nothing is pending.
		if e.j.Len() != 0 {
			t.Fatalf("the engine's journal holds %d steps after the pass", e.j.Len())
		}

		// Differential: the journaled engine equals the copy-based oracle.
		wantRes, wantCluster := naiveRun(now, w.cfg, w.in, initial.Clone())
		if d := cmp.Diff(wantRes, res, errPresence); d != "" {
			t.Fatalf("engine vs naive oracle (-want +got):\n%s", d)
		}
		if d := cmp.Diff(wantCluster.Snapshot(), w.cluster.Snapshot()); d != "" {
			t.Fatalf("model vs naive oracle (-want +got):\n%s", d)
		}

		// Exactly one outcome per distinct nominated job.
		nominated := map[string]bool{}
		for _, n := range w.in.Nominations {
			nominated[n.Job] = true
		}
		got := map[string]int{}
		for _, o := range res.Outcomes {
			got[o.Job]++
		}
		for job := range nominated {
			if got[job] != 1 {
				t.Fatalf("job %q has %d outcomes", job, got[job])
			}
		}
		if len(got) != len(nominated) {
			t.Fatalf("%d outcomes for %d nominated jobs", len(got), len(nominated))
		}

		// Replay only the commits on the initial model: each contender
		// really fits once its victim is gone, nothing is placed twice, and
		// kept/skipped/deferred victims left no trace.
		replay := initial.Clone()
		victims := map[string]Victim{}
		for _, v := range w.in.Victims {
			if _, ok := victims[v.ID]; !ok {
				victims[v.ID] = v
			}
		}
		for _, o := range res.Outcomes {
			v := victims[o.Job]
			switch o.Kind {
			case OutcomeCommitted:
				if w.protected[o.Job] {
					t.Fatalf("protected victim %q evicted", o.Job)
				}
				if now.Before(v.NotBefore) {
					t.Fatalf("victim %q evicted during cooldown (not-before %v)", o.Job, v.NotBefore)
				}
				if err := replay.Evict(nil, o.Job); err != nil {
					t.Fatalf("replay evict %q: %v", o.Job, err)
				}
				for _, cn := range o.Contenders {
					if w.prio[cn] <= v.Priority {
						t.Fatalf("contender %q (priority %d) placed in victim %q (priority %d)", cn, w.prio[cn], o.Job, v.Priority)
					}
					if ok, err := replay.Place(nil, cn); !ok || err != nil {
						t.Fatalf("replay: contender %q does not fit after evicting %q: %v %v", cn, o.Job, ok, err)
					}
				}
			case OutcomeSkipped:
				if o.Reason == eligibility.ReasonCooldown && !o.Until.Equal(v.NotBefore) {
					t.Fatalf("cooldown Until %v, want %v", o.Until, v.NotBefore)
				}
			}
			if now.Before(v.NotBefore) && o.Kind != OutcomeDeferred && o.Reason != eligibility.ReasonCooldown && o.Reason != ReasonPlacedThisPass {
				t.Fatalf("victim %q in cooldown got %v/%v", o.Job, o.Kind, o.Reason)
			}
		}
		if d := cmp.Diff(replay.Snapshot(), w.cluster.Snapshot()); d != "" {
			t.Fatalf("model differs from the replay of the commits (-want +got):\n%s", d)
		}

		// The input order of nominations does not matter.
		perm := rapid.Permutation(w.in.Nominations).Draw(t, "perm")
		in2 := w.in
		in2.Nominations = perm
		c2 := initial.Clone()
		res2, err := e.Run(now, in2, c2)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(res, res2, errPresence); d != "" {
			t.Fatalf("result depends on nomination order (-first +permuted):\n%s", d)
		}
		if d := cmp.Diff(w.cluster.Snapshot(), c2.Snapshot()); d != "" {
			t.Fatalf("model depends on nomination order (-first +permuted):\n%s", d)
		}
	})
}
