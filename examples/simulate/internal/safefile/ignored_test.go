package safefile

import (
	"bufio"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
)

const ignoredEnv = "SAFEFILE_TEST_IGNORED_DIR"

// TestChildIgnoresSIGINT is the child process of TestIgnoredSignalStaysIgnored:
// started with SIGINT ignored, it arranges the cleanup, creates an output,
// checks that SIGINT is still ignored, says so, waits for a line on stdin
// (sent after the parent's SIGINT) and commits the output.
func TestChildIgnoresSIGINT(t *testing.T) {
	dir := os.Getenv(ignoredEnv)
	if dir == "" {
		t.Skip("only runs as the child of TestIgnoredSignalStaysIgnored")
	}
	if !signal.Ignored(syscall.SIGINT) {
		t.Fatal("the child was not started with SIGINT ignored")
	}
	stop := CleanupOnSignal()
	defer stop()
	if !signal.Ignored(syscall.SIGINT) {
		t.Fatal("CleanupOnSignal stopped ignoring SIGINT")
	}
	f, err := Create(filepath.Join(dir, "out.svg"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("whole"))
	os.Stdout.WriteString("ready\n")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatalf("commit after an ignored SIGINT: %v", err)
	}
}

// A process started with SIGINT ignored (a background job of a
// non-interactive shell) keeps ignoring it: a stray SIGINT neither removes
// its outputs nor ends it, and the run writes its file.
func TestIgnoredSignalStaysIgnored(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to start a child with SIGINT ignored")
	}
	dir := t.TempDir()
	cmd := exec.Command(sh, "-c", `trap "" INT; exec "$0" -test.run='^TestChildIgnoresSIGINT$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), ignoredEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	var said string
	for {
		line, err := r.ReadString('\n')
		said += line
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child never said ready: %v\n%s", err, said)
		}
		if line == "ready\n" {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	in.Write([]byte("go\n"))
	rest, _ := r.ReadString(0)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s", err, rest)
	}
	if got := readFile(t, filepath.Join(dir, "out.svg")); got != "whole" {
		t.Errorf("output %q, want %q", got, "whole")
	}
	if l := leftovers(t, dir); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
}
