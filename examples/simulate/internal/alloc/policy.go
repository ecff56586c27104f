package alloc

import (
	"fmt"
	"strings"
)

// Policy is a placement policy of the paper's comparison.
type Policy int

// The six policies, in the paper's order.
const (
	// Random places a pod on a fitting node chosen uniformly at random,
	// and a GPU-sharing pod on a random GPU that fits it.
	Random Policy = iota
	// DotProd scores a node by one minus the dot product of its free
	// (CPU, total GPU) and the pod's request, each divided by the largest
	// node's (128 cores, 8 GPUs) and halved: the lower the product, the
	// higher the score (Tetris's alignment heuristic as the paper runs
	// it).
	DotProd
	// GPUClustering prefers nodes already running pods of the same kind
	// (GPU-sharing, or k whole GPUs): 75-100 when the node runs only that
	// kind, 50-75 when it runs it among others, 25-50 for a node running
	// no GPU pod, 0-25 otherwise; within a band, the less free GPU the
	// higher. A pod asking for no GPU scores 0 on every node.
	GPUClustering
	// GPUPacking prefers, in order, a GPU-sharing pod on partly used GPUs
	// (the fuller the better), then whole GPUs on a partly used node (the
	// fewer the better), then an idle node (the fewer its GPUs the
	// better). A pod asking for no GPU scores 0 on every node.
	GPUPacking
	// BestFit scores a node by the free CPU and GPU the pod would leave,
	// each divided by the largest node's and weighted half: the less left,
	// the higher.
	BestFit
	// FragGradient is the paper's fragmentation gradient descent: the
	// score is 100 × sigmoid of the fall of the node's fragmentation (in
	// GPUs) when the pod is placed; a GPU-sharing pod is placed on the GPU
	// whose use scores best, and that is the GPU it takes.
	FragGradient
	numPolicies
)

var policyNames = [numPolicies]string{"random", "dot-prod", "gpu-clustering", "gpu-packing", "best-fit", "frag-gradient"}

// paperNames are the policies' names in the paper's result files.
var paperNames = [numPolicies]string{"01-Random", "02-DotProd", "03-GpuClustering", "04-GpuPacking", "05-BestFit", "06-FGD"}

// Policies returns the six policies in the paper's order.
func Policies() []Policy {
	return []Policy{Random, DotProd, GPUClustering, GPUPacking, BestFit, FragGradient}
}

// ParsePolicy parses a -placement value of the allocation experiment.
func ParsePolicy(s string) (Policy, error) {
	for p, n := range policyNames {
		if n == s {
			return Policy(p), nil
		}
	}
	return 0, fmt.Errorf("alloc: placement %q: want one of %s", s, strings.Join(policyNames[:], ", "))
}

// String returns the flag spelling of p.
func (p Policy) String() string {
	if p >= 0 && p < numPolicies {
		return policyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// PaperName returns p's name in the paper's result files (sc_policy),
// e.g. "06-FGD".
func (p Policy) PaperName() string {
	if p >= 0 && p < numPolicies {
		return paperNames[p]
	}
	return p.String()
}

// ParsePaperName maps a paper's sc_policy name back to its Policy.
func ParsePaperName(s string) (Policy, bool) {
	for p, n := range paperNames {
		if n == s {
			return Policy(p), true
		}
	}
	return 0, false
}
