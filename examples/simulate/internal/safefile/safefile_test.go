package safefile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// leftovers lists the temporary files in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewAndReplacedRegularFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.svg")
	if err := WriteFile(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if got := readFile(t, p); got != "one" || fi.Mode().Perm() != 0o644 {
		t.Errorf("new file: %q mode %v, want \"one\" 0644", got, fi.Mode().Perm())
	}
	os.Chmod(p, 0o600)
	if err := WriteFile(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Stat(p)
	if got := readFile(t, p); got != "two" || fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced file: %q mode %v, want \"two\" 0600 (mode kept)", got, fi.Mode().Perm())
	}
	if l := leftovers(t, dir); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestDiscardKeepsOldContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.csv")
	os.WriteFile(p, []byte("old"), 0o644)
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	if len(leftovers(t, dir)) != 1 {
		t.Fatal("Create made no temporary file beside the target")
	}
	f.Discard()
	f.Discard() // idempotent
	if got := readFile(t, p); got != "old" {
		t.Errorf("after Discard: %q, want old content", got)
	}
	if l := leftovers(t, dir); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after Discard succeeded")
	}
}

func TestSymlinkIsFollowed(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "real")
	os.Mkdir(sub, 0o755)
	target := filepath.Join(sub, "plot.svg")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.svg")
	if err := os.Symlink("real/plot.svg", link); err != nil { // relative link
		t.Fatal(err)
	}
	link2 := filepath.Join(dir, "link2.svg") // a chain
	os.Symlink(link, link2)
	if err := WriteFile(link2, []byte("new")); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, link2} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", l)
		}
	}
	if got := readFile(t, target); got != "new" {
		t.Errorf("target: %q, want new", got)
	}
	if l := append(leftovers(t, dir), leftovers(t, sub)...); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
	// A dangling link creates its target.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("real/new.svg", dangling)
	if err := WriteFile(dangling, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(sub, "new.svg")); got != "x" {
		t.Errorf("dangling link target: %q, want x", got)
	}
	// A loop is an error, not a hang.
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink(b, a)
	os.Symlink(a, b)
	if _, err := Create(a); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("link loop: %v, want a symbolic-link error", err)
	}
}

func TestFIFOIsWrittenDirectly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		r, err := os.OpenFile(fifo, os.O_RDONLY, 0)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("reader got %q", s)
	}
	fi, err := os.Lstat(fifo)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi, err)
	}
	if l := leftovers(t, dir); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestDevNullStaysADevice(t *testing.T) {
	if err := WriteFile(os.DevNull, []byte("discarded")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(os.DevNull)
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a character device: %v %v", os.DevNull, fi, err)
	}
}

func TestDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	_, err := Create(dir)
	if err == nil || !strings.Contains(err.Error(), "is a directory") || !strings.HasPrefix(err.Error(), "safefile: ") {
		t.Errorf("Create(dir) = %v, want a safefile directory error", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(dir, link)
	if _, err := Create(link); err == nil {
		t.Error("Create(link to a directory) succeeded")
	}
	if _, err := Create(filepath.Join(dir, "no", "such", "dir", "f")); err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: %v, want ErrNotExist", err)
	}
}

const childEnv = "SAFEFILE_TEST_CHILD_DIR"

// TestChildHoldsATemp is the child process of TestInterruptRemovesTemp:
// it creates an output, says so, and waits to be killed.
func TestChildHoldsATemp(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("only runs as the child of TestInterruptRemovesTemp")
	}
	CleanupOnSignal()
	f, err := Create(filepath.Join(dir, "out.svg"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	os.Stdout.WriteString("ready\n")
	select {} // wait for the signal
}

func TestInterruptRemovesTemp(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestChildHoldsATemp$")
			cmd.Env = append(os.Environ(), childEnv+"="+dir)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != "ready\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child said %q", line)
			}
			if len(leftovers(t, dir)) != 1 {
				t.Fatal("the child holds no temporary file")
			}
			cmd.Process.Signal(sig)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child ended with %v, want an exit error", err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("child status %v, want ended by %v", ee, sig)
			}
			if l := leftovers(t, dir); len(l) != 0 {
				t.Errorf("temporary files left after %v: %v", sig, l)
			}
		})
	}
}

func TestRemoveTempsClosesTheRegistry(t *testing.T) {
	// Run in a child so the registry of this process stays open.
	if os.Getenv(childEnv+"_CLOSE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRemoveTempsClosesTheRegistry$", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"_CLOSE=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if n := RemoveTemps(); n != 1 {
		t.Errorf("RemoveTemps = %d, want 1", n)
	}
	if f.Commit() == nil {
		t.Error("Commit after RemoveTemps succeeded")
	}
	if _, err := Create(filepath.Join(dir, "y")); err == nil {
		t.Error("Create after RemoveTemps succeeded")
	}
}
