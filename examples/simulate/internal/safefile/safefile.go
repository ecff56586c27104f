package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds how many symbolic links Create follows (Linux's own
// limit for path resolution is 40).
const maxLinks = 40

// File is an output being written. Write to it, then call Commit to put
// the content in place, or Discard to drop it; Discard after Commit does
// nothing, so `defer f.Discard()` is the idiom. A File is not safe for
// concurrent use.
type File struct {
	path    string // as given, for messages
	target  string // after following symbolic links
	special bool   // write target directly
	mode    fs.FileMode
	tmp     *os.File // atomic mode: the temporary file
	direct  *os.File // special mode: opened on first write
	done    bool
}

// Create prepares to write path (see the package documentation for what
// happens to each kind of destination). It fails at once for a directory,
// a block device, a socket, a link loop or an unwritable directory, so a
// caller can check its outputs before a long computation.
func Create(path string) (*File, error) {
	target, fi, err := resolve(path)
	if err != nil {
		return nil, err
	}
	f := &File{path: path, target: target, mode: 0o644}
	if fi != nil {
		switch m := fi.Mode(); {
		case m.IsDir():
			return nil, fmt.Errorf("safefile: %s is a directory", path)
		case m&fs.ModeNamedPipe != 0, m&fs.ModeCharDevice != 0:
			f.special = true
			return f, nil
		case !m.IsRegular():
			return nil, fmt.Errorf("safefile: %s is a %s, not a regular file; refusing to write it", path, kind(m))
		default:
			f.mode = m.Perm()
		}
	}
	if err := f.createTemp(); err != nil {
		return nil, err
	}
	return f, nil
}

// resolve follows symbolic links from path to the final target and
// returns it with its FileInfo (nil when the target does not exist).
func resolve(path string) (string, fs.FileInfo, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil, nil
		}
		if err != nil {
			return "", nil, fmt.Errorf("safefile: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, fi, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", nil, fmt.Errorf("safefile: %w", err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", nil, fmt.Errorf("safefile: %s: more than %d symbolic links", path, maxLinks)
}

// kind names a non-regular file mode for an error message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSocket != 0:
		return "socket"
	default:
		return "special file"
	}
}

// createTemp creates and registers the temporary file beside the target.
func (f *File) createTemp() error {
	dir, base := filepath.Split(f.target)
	if dir == "" {
		dir = "."
	}
	tmp, err := register(func() (*os.File, error) { return os.CreateTemp(dir, "."+base+".tmp-*") })
	if err != nil {
		return fmt.Errorf("safefile: cannot write %s: %w", f.path, err)
	}
	f.tmp = tmp
	return nil
}

// Target is the file that Commit replaces or writes: the path given to
// Create with its symbolic links followed.
func (f *File) Target() string { return f.target }

// Write writes p to the temporary file, or directly to a special file
// (opening it on the first write).
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("safefile: %s: write after commit or discard", f.path)
	}
	if f.special {
		if f.direct == nil {
			d, err := os.OpenFile(f.target, os.O_WRONLY, 0)
			if err != nil {
				return 0, fmt.Errorf("safefile: %w", err)
			}
			f.direct = d
		}
		return f.direct.Write(p)
	}
	return f.tmp.Write(p)
}

// Commit puts the written content in place: for a regular destination it
// sets the permission bits, syncs and closes the temporary file, renames
// it over the target and syncs the directory; for a special file it
// closes it. On error the temporary file is removed and the destination
// is untouched.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("safefile: %s: already committed or discarded", f.path)
	}
	f.done = true
	if f.special {
		if f.direct == nil { // nothing written: still open it, as `: > fifo` would
			d, err := os.OpenFile(f.target, os.O_WRONLY, 0)
			if err != nil {
				return wrap(err)
			}
			return wrap(d.Close())
		}
		return wrap(f.direct.Close())
	}
	tmp := f.tmp
	err := tmp.Chmod(f.mode)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f.target)
	}
	unregister(tmp.Name())
	if err != nil {
		os.Remove(tmp.Name())
		return wrap(err)
	}
	syncDir(filepath.Dir(f.target))
	return nil
}

// Discard drops what was written: it removes the temporary file (or
// closes a special file). It does nothing after Commit and is nil-safe.
func (f *File) Discard() {
	if f == nil || f.done {
		return
	}
	f.done = true
	if f.direct != nil {
		f.direct.Close()
	}
	if f.tmp != nil {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
		unregister(f.tmp.Name())
	}
}

// WriteFile writes data to path as Create, Write and Commit would.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	if _, err := f.Write(data); err != nil {
		return wrap(err)
	}
	return f.Commit()
}

// syncDir makes a rename in dir durable; errors are ignored because some
// file systems cannot sync a directory and the rename itself succeeded.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// wrap prefixes err with the package name unless it is nil or already
// has it.
func wrap(err error) error {
	if err == nil || strings.HasPrefix(err.Error(), "safefile: ") {
		return err
	}
	return fmt.Errorf("safefile: %w", err)
}
