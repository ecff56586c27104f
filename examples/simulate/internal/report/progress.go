package report

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Progress prints a one-line Progress indicator on stderr — what is
// running, the percentage done and an estimate of the time left — but only
// when stderr is a terminal and only once the run has taken longer than
// progressDelay, so short runs and redirected output stay quiet.
//
// The percentage counts simulated time, the report's clock: each
// simulation contributes the fraction of its horizon it has covered, so
// 50% means half of all the simulated time the run will cover. The
// estimate extrapolates the wall time spent so far at that rate. It is
// safe for concurrent use (parallel sweeps report to one indicator).
type Progress struct {
	mu    sync.Mutex
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

func NewProgress(w io.Writer) *Progress {
	return &Progress{w: w, tty: isTerminal(w), start: time.Now(), now: time.Now}
}

// Update reports that label is running and that done of total units of
// simulated time are covered.
func (p *Progress) Update(label string, done, total float64) {
	if !p.tty || total <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	elapsed := now.Sub(p.start)
	if elapsed < progressDelay || now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	p.shown = true
	frac := min(max(done/total, 0), 1)
	eta := "?"
	if frac > 0 {
		left := time.Duration(float64(elapsed) * (1 - frac) / frac)
		eta = left.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\033[Ksimulate: %s  %.0f%%  %s left (%s so far)", label, 100*frac, eta, elapsed.Round(time.Second))
}

// Finish erases the indicator if it was ever shown.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
