package requeuetest

import (
	"fmt"
	"slices"
)

// localizer is the requeue engine's optional locality hint
// (requeue.Localizer), detected by its method set: Domains appends to dst
// the keys of the domains where the running job holds resources and
// returns dst.
type localizer interface {
	Domains(job string, dst []string) []string
}

// dstMark is what the kit puts in dst before calling Domains: the model
// must append after it and keep it.
const dstMark = "requeuetest-dst"

// checkDomains checks the locality hint in the current state, then its
// locality contract on a random set of running jobs and a pending one.
//
//   - Domains must not change the state; it must keep dst's contents and
//     append after them; it must append nothing for an unknown job or a
//     pending one, no key twice, and, in one state, the same keys for one
//     job (asked twice, and whenever the sequence comes back to a state it
//     has seen).
//   - Locality: when a pending job fits after evicting a set of running
//     jobs, it must also fit after evicting only those whose domains meet
//     the domains it then occupies (see locality).
func (r *sequence[M]) checkDomains() {
	before := r.state(r.m)
	ids := append(slices.Clone(r.jobs), r.unknown...)
	doms := make(map[string][]string, len(r.jobs))
	for k, id := range ids {
		got, ok := r.domains(id, before)
		if !ok {
			return
		}
		if known := k < len(r.jobs); len(got) > 0 && (!known || !r.runs[k]) {
			what, i := "a job the model does not know", -1
			if known {
				what, i = "a pending job", k
			}
			r.failf("Domains(%q) = %q for %s (the contract: nothing appended for an unknown or pending job)%s", id, got, what, r.argsHint(i))
			return
		}
		doms[id] = got
	}
	if got := r.state(r.m); got != before {
		r.failState("Domains changed the state (the contract: Domains must not)", before, got)
		return
	}
	r.locality(doms)
}

// domains calls Domains(id) twice on a dst holding dstMark and checks what
// does not need another operation: dst kept, no duplicate, the same keys
// both times and as the last time in this state. It returns the keys
// appended; ok is false after a failure.
func (r *sequence[M]) domains(id, state string) (keys []string, ok bool) {
	call := func() []string {
		dst := make([]string, 1, 4)
		dst[0] = dstMark
		return r.local.Domains(id, dst)
	}
	got, again := call(), call()
	switch {
	case len(got) == 0 || got[0] != dstMark:
		return nil, r.failf("Domains(%q, [%q]) = %q: dst's contents lost (the contract: Domains appends to dst)", id, dstMark, got)
	case !slices.Equal(got, again):
		return nil, r.failf("Domains(%q) = %q, then %q in the same state (the contract: the same keys for a given state)", id, got[1:], again[1:])
	}
	keys = got[1:]
	if d, dup := firstDuplicate(keys); dup {
		return nil, r.failf("Domains(%q) = %q names %q twice (the contract: no duplicates)", id, keys, d)
	}
	byJob := r.domainsSeen[state]
	if byJob == nil {
		byJob = map[string][]string{}
		r.domainsSeen[state] = byJob
	}
	if seen, ok := byJob[id]; ok && !slices.Equal(seen, keys) {
		return nil, r.failf("Domains(%q) = %q, but %q the last time the model was in this state (the contract: the same keys for a given state)", id, keys, seen)
	}
	byJob[id] = keys
	return keys, true
}

// locality draws up to three running jobs and a pending one. When the
// pending job fits after evicting them all, it must also fit after
// evicting only those whose domains (doms, in the current state) meet the
// domains it occupies once placed: the others freed nothing where it
// landed. A hint that omits a domain of a job, or names none for a
// running one, lets the engine drop a victim the contender needs.
func (r *sequence[M]) locality(doms map[string][]string) {
	var running []string
	var pending []string
	for i, id := range r.jobs {
		if r.runs[i] {
			running = append(running, id)
		} else {
			pending = append(pending, id)
		}
	}
	if len(running) == 0 || len(pending) == 0 {
		return
	}
	r.rng.Shuffle(len(running), func(i, j int) { running[i], running[j] = running[j], running[i] })
	set := running[:1+r.rng.IntN(min(3, len(running)))]
	job := pending[r.rng.IntN(len(pending))]
	var landed []string
	ok, done, err := r.tryPlaceAfter(set, job, &landed)
	if !done || !ok || err != nil {
		return // nothing to check, or a failure already reported
	}
	var near []string
	for _, v := range set {
		if slices.ContainsFunc(doms[v], func(d string) bool { return slices.Contains(landed, d) }) {
			near = append(near, v)
		}
	}
	if len(near) == len(set) {
		return
	}
	r.cov.domainsApart++
	ok, done, err = r.tryPlaceAfter(near, job, nil)
	switch {
	case !done:
	case err != nil || !ok:
		r.failf("Place(%q) after evicting %q placed it on domains %q, but after evicting only %q, the ones whose domains (%s) meet those, it returned %v, %v: the engine would keep a victim the contender needs (the contract: evicting a job changes the model only within its domains)",
			job, set, landed, near, domainList(set, doms), ok, err)
	}
}

// firstDuplicate returns a key that keys holds twice.
func firstDuplicate(keys []string) (string, bool) {
	for i, k := range keys {
		if slices.Contains(keys[:i], k) {
			return k, true
		}
	}
	return "", false
}

// domainList formats the domains of each job of set.
func domainList(set []string, doms map[string][]string) string {
	s := ""
	for i, v := range set {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%q: %q", v, doms[v])
	}
	return s
}
