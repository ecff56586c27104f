package safefile

import (
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// registry lists the temporary files not yet committed or discarded, so a
// signal handler can remove them. After the handler has run, closed is set
// and no new temporary file is created.
var registry struct {
	mu     sync.Mutex
	temps  map[string]struct{}
	closed bool
}

// errInterrupted is returned by Create once the process is being ended by
// a signal.
var errInterrupted = errors.New("the process is being interrupted")

// register creates a temporary file with create and lists it, under the
// registry's lock so that a concurrent signal cannot miss it.
func register(create func() (*os.File, error)) (*os.File, error) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.closed {
		return nil, errInterrupted
	}
	f, err := create()
	if err != nil {
		return nil, err
	}
	if registry.temps == nil {
		registry.temps = make(map[string]struct{})
	}
	registry.temps[f.Name()] = struct{}{}
	return f, nil
}

// unregister drops name from the registry.
func unregister(name string) {
	registry.mu.Lock()
	delete(registry.temps, name)
	registry.mu.Unlock()
}

// RemoveTemps removes every temporary file not yet committed or discarded
// and makes later calls to Create fail. It returns how many it removed.
// Cost O(temporary files).
func RemoveTemps() int {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	registry.closed = true
	n := 0
	for name := range registry.temps {
		if os.Remove(name) == nil {
			n++
		}
		delete(registry.temps, name)
	}
	return n
}

// CleanupOnSignal arranges that SIGINT or SIGTERM first removes every
// temporary file ([RemoveTemps]) and then ends the process as the signal
// would have by default, so the exit status still says which signal ended
// it. A signal the process ignores (as a shell ignores SIGINT for a
// background job, or nohup SIGHUP) stays ignored: it neither removes the
// temporary files nor ends the process. Call stop to undo the arrangement
// (signals then act as before).
func CleanupOnSignal() (stop func()) {
	sigs := watched()
	if len(sigs) == 0 {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case sig := <-ch:
			RemoveTemps()
			signal.Reset(sig)
			syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
		})
	}
}

// watched returns the signals CleanupOnSignal acts on: SIGINT and
// SIGTERM, less those the process ignores (signal.Notify would stop
// ignoring them).
func watched() []os.Signal {
	var out []os.Signal
	for _, sig := range []os.Signal{syscall.SIGINT, syscall.SIGTERM} {
		if !signal.Ignored(sig) {
			out = append(out, sig)
		}
	}
	return out
}
