package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// The default input: the Alibaba openb GPU-cluster trace (CC BY 4.0, see
// data/README.md), embedded so the program runs with no flags and no network.
var (
	//go:embed data/openb_pod_list_default.csv
	embeddedPods []byte
	//go:embed data/openb_node_list_gpu_node.csv
	embeddedNodes []byte
)

// loadEmbedded parses the embedded openb trace.
func loadEmbedded(teams int) ([]trace.Job, []trace.Node, error) {
	jobs, err := trace.ParsePods("openb_pod_list_default.csv", bytes.NewReader(embeddedPods), teams)
	if err != nil {
		return nil, nil, err
	}
	nodes, err := trace.ParseNodes("openb_node_list_gpu_node.csv", bytes.NewReader(embeddedNodes))
	if err != nil {
		return nil, nil, err
	}
	return jobs, nodes, nil
}

// embeddedSource names the default input in reports.
const embeddedSource = "Alibaba openb 2023 (embedded)"

// input loads the workload the options name.
func (o options) input() (jobs []trace.Job, nodes []trace.Node, source string, err error) {
	switch {
	case o.synthetic:
		jobs, nodes = trace.Synthesize(o.seed, o.synthJobs, o.teams, o.failRate)
		src := fmt.Sprintf("synthetic (seed %d, %d jobs", o.seed, o.synthJobs)
		if o.failRate > 0 {
			src += fmt.Sprintf(", fail rate %g", o.failRate)
		}
		return jobs, nodes, src + ")", nil
	case o.trace == "" && o.nodes == "":
		jobs, nodes, err = loadEmbedded(o.teams)
		return jobs, nodes, embeddedSource, err
	}
	if o.trace != "" {
		data, err := os.ReadFile(o.trace)
		if err != nil {
			return nil, nil, "", fmt.Errorf("simulate: %w", err)
		}
		if jobs, err = trace.ParsePods(o.trace, bytes.NewReader(data), o.teams); err != nil {
			return nil, nil, "", err
		}
		source = o.trace
	} else {
		if jobs, err = trace.ParsePods("openb_pod_list_default.csv", bytes.NewReader(embeddedPods), o.teams); err != nil {
			return nil, nil, "", err
		}
		source = embeddedSource
	}
	if o.nodes != "" {
		data, err := os.ReadFile(o.nodes)
		if err != nil {
			return nil, nil, "", fmt.Errorf("simulate: %w", err)
		}
		if nodes, err = trace.ParseNodes(o.nodes, bytes.NewReader(data)); err != nil {
			return nil, nil, "", err
		}
		source += " on " + o.nodes
	} else if nodes, err = trace.ParseNodes("openb_node_list_gpu_node.csv", bytes.NewReader(embeddedNodes)); err != nil {
		return nil, nil, "", err
	}
	return jobs, nodes, source, nil
}
