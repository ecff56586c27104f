package sim

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// The comment on maxWorkloadShapes states the share of the embedded
// trace's tasks the most common shapes cover; it must be what they cover.
func TestWorkloadShapesCoverage(t *testing.T) {
	f, err := os.Open("../../data/openb_pod_list_default.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jobs, err := trace.ParsePods("openb_pod_list_default.csv", f, 3)
	if err != nil {
		t.Fatal(err)
	}
	var tasks, covered float64
	for i := range jobs {
		tasks += float64(jobs[i].Tasks)
	}
	shapes := WorkloadShapes(jobs)
	for _, s := range shapes {
		covered += s.Weight
	}
	src, err := os.ReadFile("fragment.go")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the %d most common task shapes cover %.1f%% of its %d tasks", len(shapes), 100*covered/tasks, int(tasks))
	if comment := strings.Join(strings.Fields(strings.ReplaceAll(string(src), "//", "")), " "); !strings.Contains(comment, want) {
		t.Errorf("fragment.go does not say %q", want)
	}
}
