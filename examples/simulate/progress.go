package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress prints a one-line progress indicator on stderr, but only when
// stderr is a terminal and only once the run has taken longer than
// progressDelay, so short runs and redirected output stay quiet.
type progress struct {
	w     io.Writer
	tty   bool
	start time.Time
	last  time.Time
	shown bool
	now   func() time.Time
}

const (
	progressDelay = 2 * time.Second
	progressEvery = 250 * time.Millisecond
)

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, tty: isTerminal(w), start: time.Now(), now: time.Now}
}

// update reports that the simulation of the named policy has covered done
// of total simulated seconds.
func (p *progress) update(policy string, done, total int64) {
	if !p.tty {
		return
	}
	now := p.now()
	if now.Sub(p.start) < progressDelay || now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	p.shown = true
	fmt.Fprintf(p.w, "\r\033[Ksimulate: %s  simulated %s of %s  (%s)", policy,
		fmtDur(float64(done)), fmtDur(float64(total)), now.Sub(p.start).Round(100*time.Millisecond))
}

// finish erases the indicator if it was ever shown.
func (p *progress) finish() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
