package alloc

import "math/rand/v2"

// bestFitGPU returns the GPU with the least free share that still holds
// milli (the lowest-numbered on a tie), -1 when none.
func bestFitGPU(gpu []int32, milli int32) int {
	best := -1
	for i, g := range gpu {
		if g >= milli && (best < 0 || g < gpu[best]) {
			best = i
		}
	}
	return best
}

// wholeGPUs returns the k lowest-numbered GPUs with at least milli free.
func wholeGPUs(gpu []int32, k, milli int32) []int {
	out := make([]int, 0, k)
	for i, g := range gpu {
		if int32(len(out)) == k {
			break
		}
		if g >= milli {
			out = append(out, i)
		}
	}
	return out
}

// chooseGPUs returns the GPUs p takes on n under pol: for a GPU-sharing
// pod, a random fitting GPU (Random), the gradient's GPU (FragGradient)
// or the best-fitting GPU (the others); for whole GPUs, the
// lowest-numbered free ones; none for a CPU-only pod.
func chooseGPUs(pol Policy, n *node, p *pod, w []Shape, scratch []int32, rng *rand.Rand) []int {
	switch {
	case p.gpus == 0:
		return nil
	case !p.share():
		return wholeGPUs(n.gpu, p.gpus, p.milli)
	case pol == Random:
		pick, seen := -1, 0
		for i, g := range n.gpu {
			if g >= p.milli {
				if seen++; rng.IntN(seen) == 0 {
					pick = i
				}
			}
		}
		return []int{pick}
	case pol == FragGradient:
		_, g := gradient(n, p, w, scratch)
		return []int{g}
	}
	return []int{bestFitGPU(n.gpu, p.milli)}
}
