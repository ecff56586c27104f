package requeue

// fill places, in contender order, the available contenders before index
// limit that fit without an eviction, committing each one: the first
// round of a pass, before any search, and the last, after every
// contender's turn (the contenders whose search failed may fit in the
// room the commits left; one round, not one per commit, so that a pass
// of many commits does not retry the same failures after each). The round stops after MaxFillFailures failed fit
// tests: a contender known not to fit in the current state (its shape
// failed in it) counts as one without a Place call. after names the first victim of the
// set committed just before ("" at the start of the pass).
func (e *Engine) fill(after string, limit int) {
	failures := 0
	for ci := e.chead; ci >= 0 && int(ci) < limit && failures < e.fillMax; {
		c := &e.conts[ci]
		next := c.next
		switch e.fit(ci, true) {
		case fitYes:
			e.remove(ci)
			e.commit()
			e.newState()
			e.freeFit(c.c.ID, after)
		case fitNo:
			failures++
		default:
			if e.stop != "" {
				return
			}
		}
		ci = next
	}
}
