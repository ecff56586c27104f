package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -waits counts a job running at the end as unfinished, not as waiting:
// on one 1-GPU node, first runs 3,000 s; second, arrived next, starts
// then and is still running when the run ends (1h after the last
// arrival); third waits behind it to the end. All three could finish
// alone before the end.
func TestWaitsRunningIsNotWaiting(t *testing.T) {
	dir := t.TempDir()
	pods := filepath.Join(dir, "pods.csv")
	nodes := filepath.Join(dir, "nodes.csv")
	os.WriteFile(pods, []byte(podHeader+"first,1,1,1,1000,,BE,Succeeded,0,3000,0\nsecond,1,1,1,1000,,BE,Succeeded,10,3510,10\nthird,1,1,1,1000,,BE,Succeeded,20,120,20\n"), 0o644)
	os.WriteFile(nodes, []byte("sn,cpu_milli,memory_mib,gpu\nn0,10,10,1\n"), 0o644)
	args := []string{"-trace", pods, "-nodes", nodes, "-interval", "10s", "-policies", "priority", "-tail", "1h"}
	rep := runJSON(t, args...)
	ws := rep.Results[0].Waits
	if len(ws) != 1 || ws[0].Class != "BE" {
		t.Fatalf("waits %+v, want the BE class alone", ws)
	}
	if be := ws[0]; be.Jobs != 3 || be.Censored != 2 || be.Waiting != 1 {
		t.Errorf("BE: %d jobs, %d unfinished, %d waiting; want 3, 2 and 1", be.Jobs, be.Censored, be.Waiting)
	}
	out := runCLI(t, append(args, "-waits")...)
	if !strings.Contains(out, "jobs  unfinished  waiting") {
		t.Errorf("the -waits table lacks the unfinished and waiting columns:\n%s", out)
	}
}
