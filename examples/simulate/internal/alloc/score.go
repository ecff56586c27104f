package alloc

import "math"

// The largest node's capacity, which scores divide by (128 cores, 8
// GPUs), and the score range of a Kubernetes score plugin.
const (
	maxSpecCPU = 128000
	maxSpecGPU = 8000
	maxScore   = 100
)

// score rates p on n (p fits n) under policy pol, 0 to 100, higher being
// better. Random is not scored (see pick). scratch is a GPU slice the
// gradient may use. Cost O(G) but O(G²·W) for FragGradient.
func score(pol Policy, n *node, p *pod, w []Shape, scratch []int32) int64 {
	switch pol {
	case DotProd:
		return dotProdScore(n, p)
	case GPUClustering:
		return clusteringScore(n, p)
	case GPUPacking:
		return packingScore(n, p)
	case BestFit:
		return bestFitScore(n, p)
	case FragGradient:
		s, _ := gradient(n, p, w, scratch)
		return s
	}
	return 0
}

// dotProdScore: 100 × (1 − the halved dot product of the node's free
// and the pod's requested CPU and total GPU, each over the largest
// node's).
func dotProdScore(n *node, p *pod) int64 {
	d := float64(n.cpu)/maxSpecCPU*float64(p.cpu)/maxSpecCPU +
		float64(freeMilli(n.gpu))/maxSpecGPU*float64(p.totalMilli())/maxSpecGPU
	return int64(maxScore * (1 - d/2))
}

// clusteringScore: a band by the kinds of GPU pods the node runs, then
// the node's used GPU capacity within the band (integer arithmetic, as
// the plugin computes it).
func clusteringScore(n *node, p *pod) int64 {
	if p.gpus == 0 {
		return 0
	}
	fill := maxScore / 4 * (maxSpecGPU - freeMilli(n.gpu)) / maxSpecGPU
	switch {
	case n.kinds[kindOf(p)] > 0 && len(n.kinds) == 1:
		return fill + maxScore*3/4
	case n.kinds[kindOf(p)] > 0:
		return fill + maxScore*2/4
	case len(n.kinds) == 0:
		return fill + maxScore/4
	}
	return fill
}

// packingScore: a GPU-sharing pod on a partly used GPU scores 50-100
// (the fuller that GPU the higher), a pod that must use idle GPUs of a
// partly used node 33-49 (fewer GPUs higher), an idle node 0-33 (fewer
// GPUs higher).
func packingScore(n *node, p *pod) int64 {
	if p.gpus == 0 {
		return 0
	}
	idle := int64(0)
	for _, g := range n.gpu {
		if g == 1000 {
			idle++
		}
	}
	if idle == int64(len(n.gpu)) {
		return max(maxScore/3-idle, idle)
	}
	if !p.share() {
		return max(maxScore/2-int64(p.gpus), maxScore/3)
	}
	g := n.gpu[bestFitGPU(n.gpu, p.milli)]
	if g == 1000 {
		return max(maxScore/2-1, maxScore/3)
	}
	return max(maxScore-int64(g)*100/1000/10, maxScore/2)
}

// bestFitScore: 100 × (1 − half the CPU and half the GPU the pod would
// leave free, each over the largest node's).
func bestFitScore(n *node, p *pod) int64 {
	left := 0.5*float64(n.cpu-p.cpu)/maxSpecCPU + 0.5*float64(freeMilli(n.gpu)-p.totalMilli())/maxSpecGPU
	return int64((1 - left) * maxScore)
}

// gradient returns the fragmentation-gradient score of p on n and, for a
// GPU-sharing pod, the GPU it scores best on (the lowest-numbered on a
// tie; -1 for other pods): 100 × sigmoid(the fall of n's fragmentation,
// in GPUs, when p is placed). scratch must hold len(n.gpu) values.
func gradient(n *node, p *pod, w []Shape, scratch []int32) (int64, int) {
	before := Fragmentation(n.cpu, n.gpu, n.model, w)
	after := scratch[:len(n.gpu)]
	copy(after, n.gpu)
	if !p.share() {
		for _, g := range wholeGPUs(n.gpu, p.gpus, p.milli) {
			after[g] -= p.milli
		}
		return sigmoidScore(before - Fragmentation(n.cpu-p.cpu, after, n.model, w)), -1
	}
	best, bestScore := -1, int64(0)
	for i, g := range n.gpu {
		if g < p.milli {
			continue
		}
		after[i] -= p.milli
		s := sigmoidScore(before - Fragmentation(n.cpu-p.cpu, after, n.model, w))
		after[i] += p.milli
		if best < 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	return bestScore, best
}

// sigmoidScore maps a fall in fragmentation (thousandths of a GPU) to
// 0..100: 100 × sigmoid(fall in GPUs), truncated.
func sigmoidScore(fall float64) int64 {
	return int64(maxScore / (1 + math.Exp(-fall/1000)))
}

// normalize rescales scores to 0..100 (lowest to 0, highest to 100; all
// 0 when they are equal), with integer arithmetic, as the best-fit
// plugin's normalization does.
func normalize(scores []int64) {
	if len(scores) == 0 {
		return
	}
	lo, hi := scores[0], scores[0]
	for _, s := range scores {
		lo, hi = min(lo, s), max(hi, s)
	}
	for i, s := range scores {
		if hi == lo {
			scores[i] = 0
		} else {
			scores[i] = (s - lo) * maxScore / (hi - lo)
		}
	}
}
