package trace

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const podHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"

func TestParsePodsMapping(t *testing.T) {
	in := podHeader +
		"p0,12000,16384,1,1000,,LS,Running,0,100,10\n" + // runtime = deletion - scheduled
		"p1,6000,12288,1,460,,BE,Pending,50,80,\n" + // never scheduled: deletion - creation
		"p2,1000,1024,0,0,,Burstable,Failed,7,7,7\n" + // zero runtime -> 1 s
		"p3,1000,1024,2,,,Guaranteed,Running,5,0,6\n" + // no deletion: trace end (100); missing gpu_milli: whole GPUs; Guaranteed: LS, High
		"p4,1000,1024,8,1000,,be,Succeeded,1,20,1\n" + // qos case-insensitive
		"p5,1000,1024,0,0,,BE,Succeeded,2,100,2\n" // deleted at the trace's end but not Running: not alive
	jobs, err := ParsePods("pods.csv", strings.NewReader(in), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Job{
		// Deleted at the trace's last timestamp while Running: alive at the end.
		{Name: "p0", Class: ClassLS, Arrival: 0, Runtime: 90, CPU: 12000, Mem: 16384, GPUs: 1, GPUMilli: 1000, Tasks: 1, MinTasks: 1, Phase: "Running", Alive: true},
		{Name: "p1", Class: ClassBE, Arrival: 50, Runtime: 30, CPU: 6000, Mem: 12288, GPUs: 1, GPUMilli: 460, Tasks: 1, MinTasks: 1, Phase: "Pending"},
		{Name: "p2", Class: ClassBurstable, Arrival: 7, Runtime: 1, CPU: 1000, Mem: 1024, Tasks: 1, MinTasks: 1, Phase: "Failed"},
		{Name: "p3", Class: ClassLS, High: true, Arrival: 5, Runtime: 94, CPU: 1000, Mem: 1024, GPUs: 2, GPUMilli: 1000, Tasks: 1, MinTasks: 1, Phase: "Running", Alive: true},
		{Name: "p4", Class: ClassBE, Arrival: 1, Runtime: 19, CPU: 1000, Mem: 1024, GPUs: 8, GPUMilli: 1000, Tasks: 1, MinTasks: 1, Phase: "Succeeded"},
		{Name: "p5", Class: ClassBE, Arrival: 2, Runtime: 98, CPU: 1000, Mem: 1024, Tasks: 1, MinTasks: 1, Phase: "Succeeded"},
	}
	if diff := cmp.Diff(want, jobs); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
}

func TestParsePodsColumnOrderAndExtras(t *testing.T) {
	in := "qos,extra,name,creation_time,deletion_time,scheduled_time,cpu_milli,memory_mib,num_gpu,gpu_milli\n" +
		"BE,x,a,1,11,1,1,1,1,500\n"
	jobs, err := ParsePods("pods.csv", strings.NewReader(in), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].Runtime != 10 || jobs[0].GPUMilli != 500 || jobs[0].Phase != "" {
		t.Errorf("got %+v", jobs)
	}
}

func TestParsePodsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // substrings of the error
	}{
		{"empty", "", []string{"simulate: pods.csv: empty file"}},
		{"missing columns", "name,qos\n", []string{"header lacks column(s) cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time,scheduled_time"}},
		{"duplicate column", "name,name\n", []string{`duplicate column "name"`}},
		{"no rows", podHeader, []string{"pods.csv: no tasks"}},
		{"gpu_spec refused", podHeader + "a,1,1,1,1000,V100M32,LS,Running,0,10,0\n",
			[]string{`pods.csv line 2: gpu_spec "V100M32": GPU-model constraints are not simulated`}},
		{"all problems at once", podHeader +
			"a,x,1,1,1000,,LS,Running,0,10,0\n" +
			"a,1,1,1,1000,,LS,Running,0,10,0\n" +
			"b,1,1,0,500,,LS,Running,0,10,0\n" +
			"c,1,1,1,1000,,Gold,Running,0,10,0\n" +
			"d,1,1,1,1000,,LS,Running,5,10,3\n" +
			"e,1,1,1,1000,,LS,Running,0,10,20\n" +
			"f,1,1,1,2000,,LS,Running,0,10,0\n" +
			",1,1,1,1000,,LS,Running,,10,0\n" +
			"g,1,1\n",
			[]string{
				`line 2: cpu_milli: "x" is not an integer`,
				`line 3: name: "a" already used on line 2`,
				"line 4: gpu_milli: 500 with num_gpu 0",
				`line 5: qos: "Gold" is not LS, Guaranteed, Burstable or BE`,
				"line 6: scheduled_time 3 is before creation_time 5",
				"line 7: deletion_time 10 is before its start 20",
				"line 8: gpu_milli: 2000 is out of range (max 1000)",
				"line 9: name: missing",
				"line 9: creation_time: missing",
				"line 10: 3 fields, header has 11",
			}},
		{"negative", podHeader + "f,1,1,1,1000,,LS,Running,-1,10,0\n", []string{"line 2: creation_time: -1 is negative"}},
		{"bare quote", podHeader + "a\"b,1,1,1,1000,,LS,Running,0,10,0\n", []string{"line 2", "bare"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePods("pods.csv", strings.NewReader(tc.in), 3)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// A rejected field is one problem: an unparsable scheduled_time is not also
// reported as being before creation_time.
func TestParsePodsOneProblemPerBadField(t *testing.T) {
	_, err := ParsePods("pods.csv", strings.NewReader(podHeader+"a,1,1,1,1000,,LS,Running,5,10,soon\n"), 1)
	want := `simulate: pods.csv line 2: scheduled_time: "soon" is not an integer`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestParsePodsCapsErrorList(t *testing.T) {
	var b strings.Builder
	b.WriteString(podHeader)
	for range 25 {
		b.WriteString(",1,1,1,1000,,LS,Running,0,10,0\n")
	}
	_, err := ParsePods("pods.csv", strings.NewReader(b.String()), 1)
	if err == nil || !strings.Contains(err.Error(), "pods.csv: 15 more problems not shown") {
		t.Errorf("err = %v", err)
	}
	if n := strings.Count(err.Error(), "name: missing"); n != maxReportedErrors {
		t.Errorf("%d problems listed, want %d", n, maxReportedErrors)
	}
}

func TestParseNodes(t *testing.T) {
	nodes, err := ParseNodes("nodes.csv", strings.NewReader("sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,96000,786432,8,\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Node{{Name: "n0", CPU: 64000, Mem: 262144, GPUs: 2, Model: "P100"}, {Name: "n1", CPU: 96000, Mem: 786432, GPUs: 8}}
	if diff := cmp.Diff(want, nodes); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	_, err = ParseNodes("nodes.csv", strings.NewReader("sn,cpu_milli,memory_mib,gpu\nn0,1,1,65\nn0,,1,1\n"))
	for _, w := range []string{"line 2: gpu: 65 is out of range (max 64)", `line 3: sn: "n0" already used on line 2`, "line 3: cpu_milli: missing"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q: %v", w, err)
		}
	}
}

func TestEmbeddedTrace(t *testing.T) {
	jobs, nodes, err := loadEmbedded(t, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 8152 || len(nodes) != 1213 {
		t.Fatalf("%d jobs, %d nodes; want 8152, 1213", len(jobs), len(nodes))
	}
	var classes [NumClasses]int
	teams := map[int]int{}
	gpus := int64(0)
	for _, j := range jobs {
		classes[j.Class]++
		teams[j.Team]++
	}
	for _, n := range nodes {
		gpus += int64(n.GPUs)
	}
	// LS 4,647 + Guaranteed 7; Burstable 100; BE 3,398.
	if want := [NumClasses]int{3398, 100, 4654}; classes != want {
		t.Errorf("classes = %v, want %v", classes, want)
	}
	if len(teams) != 3 || gpus != 6212 {
		t.Errorf("teams %v, GPUs %d", teams, gpus)
	}
}

// FuzzParsePods: any input gives jobs or an error, never a panic; parsed
// jobs satisfy the simulator's invariants.
func FuzzParsePods(f *testing.F) {
	f.Add([]byte(podHeader + "p0,12000,16384,1,1000,,LS,Running,0,100,10\n"))
	f.Add([]byte(podHeader + "p1,6000,12288,1,460,,BE,Pending,50,80,\n"))
	f.Add([]byte(podHeader + "a,1,1,1,1000,,LS,Running,0,10,0\na,1,1,1,1000,,LS,Running,0,10,0\n"))
	f.Add([]byte("name,qos\n\"unterminated"))
	f.Add([]byte(""))
	f.Add(embeddedPods[:2000])
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := ParsePods("fuzz.csv", strings.NewReader(string(data)), 3)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "simulate: ") {
				t.Errorf("error without package prefix: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, j := range jobs {
			if j.Runtime < 1 || j.Arrival < 0 || j.Class >= NumClasses || j.Team < 0 || j.Team >= 3 ||
				j.GPUs < 0 || j.GPUs > maxGPUsPerTask || (j.GPUs > 0) != (j.GPUMilli > 0) || j.GPUMilli > 1000 ||
				j.CPU < 0 || j.Mem < 0 || j.Name == "" || seen[j.Name] {
				t.Fatalf("invalid job %+v", j)
			}
			seen[j.Name] = true
		}
	})
}

// FuzzParseNodes: never a panic; parsed nodes are sane.
func FuzzParseNodes(f *testing.F) {
	f.Add([]byte("sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\n"))
	f.Add([]byte("sn,cpu_milli,memory_mib,gpu\nn0,1,1,65\n"))
	f.Add(embeddedNodes[:500])
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := ParseNodes("fuzz.csv", strings.NewReader(string(data)))
		if err != nil {
			return
		}
		for _, n := range nodes {
			if n.Name == "" || n.CPU < 0 || n.Mem < 0 || n.GPUs < 0 || n.GPUs > maxGPUsPerNode {
				t.Fatalf("invalid node %+v", n)
			}
		}
	})
}

// The embedded trace's files, read from the simulator's data folder.
var (
	embeddedPods, _  = os.ReadFile("../../data/openb_pod_list_default.csv")
	embeddedNodes, _ = os.ReadFile("../../data/openb_node_list_gpu_node.csv")
)

// loadEmbedded parses the embedded trace as the simulator does.
func loadEmbedded(t *testing.T, teams int) ([]Job, []Node, error) {
	t.Helper()
	if len(embeddedPods) == 0 || len(embeddedNodes) == 0 {
		t.Fatal("the embedded trace's files are missing")
	}
	jobs, err := ParsePods("openb_pod_list_default.csv", bytes.NewReader(embeddedPods), teams)
	if err != nil {
		return nil, nil, err
	}
	nodes, err := ParseNodes("openb_node_list_gpu_node.csv", bytes.NewReader(embeddedNodes))
	return jobs, nodes, err
}
