package report

import (
	"fmt"
	"io"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/safefile"
)

// OutputFile is a file the run writes at its end (-svg, -sweep-svg,
// -jobs-out). It is prepared before anything is simulated, so a bad path
// fails at once instead of after the whole run, and written with package
// safefile: atomically to a regular file (a temporary file beside it,
// renamed over it when complete, removed on SIGINT or SIGTERM), through a
// symbolic link to its target, directly to a FIFO or character device, and
// never to a directory. An existing file is never truncated by a run that
// fails.
type OutputFile struct {
	flagName string
	f        *safefile.File
}

// CreateOutput prepares path (given by -flagName) for writing.
func CreateOutput(flagName, path string) (*OutputFile, error) {
	f, err := safefile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("simulate: -%s: %w", flagName, err)
	}
	return &OutputFile{flagName: flagName, f: f}, nil
}

// Commit writes content and puts the file in place.
func (o *OutputFile) Commit(content string) error {
	return o.CommitWith(func(w io.Writer) error {
		_, err := io.WriteString(w, content)
		return err
	})
}

// CommitWith lets write stream the content, then puts the file in place;
// on an error from write nothing is put in place.
func (o *OutputFile) CommitWith(write func(io.Writer) error) error {
	if err := write(o.f); err != nil {
		o.f.Discard()
		return fmt.Errorf("simulate: -%s: %w", o.flagName, err)
	}
	if err := o.f.Commit(); err != nil {
		return fmt.Errorf("simulate: -%s: %w", o.flagName, err)
	}
	return nil
}

// Discard drops the output unless Commit ran; nil-safe, for defer.
func (o *OutputFile) Discard() {
	if o != nil {
		o.f.Discard()
	}
}
