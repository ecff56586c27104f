package stats

import "math"

// TCDF returns P(T <= t) for Student's t distribution with df degrees of
// freedom (df >= 1), from the regularized incomplete beta function. Cost
// O(1) (a continued fraction of at most 300 terms).
func TCDF(t float64, df int) float64 {
	if df < 1 || math.IsNaN(t) {
		return math.NaN()
	}
	if math.IsInf(t, 0) {
		if t > 0 {
			return 1
		}
		return 0
	}
	v := float64(df)
	tail := 0.5 * regIncBeta(v/(v+t*t), v/2, 0.5)
	if t > 0 {
		return 1 - tail
	}
	return tail
}

// TQuantile returns the p-quantile (0 < p < 1) of Student's t with df
// degrees of freedom, by bisection on [TCDF] to 1e-10. Cost O(1) (about
// 100 evaluations of TCDF).
func TQuantile(p float64, df int) float64 {
	if df < 1 || !(p > 0 && p < 1) {
		return math.NaN()
	}
	lo, hi := -1.0, 1.0
	for TCDF(lo, df) > p {
		lo *= 2
	}
	for TCDF(hi, df) < p {
		hi *= 2
	}
	for hi-lo > 1e-10*max(1, math.Abs(hi)) {
		mid := (lo + hi) / 2
		if TCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (modified Lentz), using the symmetry
// I_x(a,b) = 1 − I_{1−x}(b,a) where the fraction converges slowly.
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	front := math.Exp(lgab - lga - lgb + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(x, a, b) / a
	}
	return 1 - front*betaFraction(1-x, b, a)/b
}

// betaFraction evaluates the continued fraction of the incomplete beta
// function at x for parameters a, b.
func betaFraction(x, a, b float64) float64 {
	const tiny = 1e-300
	clamp := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c, d := 1.0, 1/clamp(1-(a+b)*x/(a+1))
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		d = 1 / clamp(1+num*d)
		c = clamp(1 + num/c)
		h *= d * c
		num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		d = 1 / clamp(1+num*d)
		c = clamp(1 + num/c)
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < 1e-15 {
			break
		}
	}
	return h
}
