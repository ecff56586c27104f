package trace

import (
	"fmt"
	"io"
	"strings"
)

// Request is one pod of a pod list read for placement alone (the
// allocation experiment): its name, demand and GPU-model constraint, with
// no times or priority.
type Request struct {
	Name     string
	CPU, Mem int64 // milli-CPUs, MiB
	// GPUs distinct GPUs with GPUMilli thousandths each (a GPU-sharing
	// pod: GPUs 1, GPUMilli < 1000); GPUs 0 asks for none.
	GPUs     int32
	GPUMilli int32
	// Models lists the GPU models the pod may run on (the gpu_spec
	// column, "|"-separated); empty means any.
	Models []string
}

var requestColumns = []string{"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}

// ParseRequests reads a pod list in the openb format for placement alone:
// the columns name, cpu_milli, memory_mib, num_gpu, gpu_milli and,
// optionally, gpu_spec (the GPU models a pod may use, separated by "|",
// as in the openb gpuspec workloads). Other columns are ignored. Every
// problem found is reported (the first few), each with its line number.
func ParseRequests(file string, r io.Reader) ([]Request, error) {
	errs := lineErrors{file: file}
	t, err := readTable(file, r, requestColumns, &errs)
	if err != nil {
		return nil, err
	}
	_, hasSpec := t.cols["gpu_spec"]
	seen := make(map[string]int, len(t.rows))
	out := make([]Request, 0, len(t.rows))
	for i, row := range t.rows {
		r := rowParser{t: t, row: row, line: t.line[i], errs: &errs}
		var j Job
		name := r.uniqueName("name", seen)
		r.demand(&j)
		q := Request{Name: name, CPU: j.CPU, Mem: j.Mem, GPUs: j.GPUs, GPUMilli: j.GPUMilli}
		if spec := specOf(r, hasSpec); spec != "" {
			q.Models = parseSpec(spec)
			if j.GPUs == 0 {
				r.fail("gpu_spec %q with num_gpu 0", spec)
			}
		}
		if q.GPUs > 1 && q.GPUMilli < 1000 {
			r.fail("num_gpu %d with gpu_milli %d: a GPU-sharing pod asks for one GPU", q.GPUs, q.GPUMilli)
		}
		if !r.bad {
			out = append(out, q)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("simulate: %s: no pods", file)
	}
	return out, nil
}

// parseSpec splits a gpu_spec value into its models, dropping empty ones.
func parseSpec(s string) []string {
	var out []string
	for _, m := range strings.Split(s, "|") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}
