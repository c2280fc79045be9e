package metrics

import "math"

// Mean is the macro mean Σx/len(x), with the sum rounded once (Shewchuk's
// exact summation, as in Python's math.fsum) rather than accumulated in
// order. The result therefore depends only on the multiset of values, never
// on question order, so two configurations whose per-question scores are a
// permutation of each other tie exactly (which the sweep's first-maximum rule
// relies on). An empty x gives 0.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return fsum(x) / float64(len(x))
}

// fsum returns the correctly rounded sum of x (Shewchuk 1997, "Adaptive
// Precision Floating-Point Arithmetic"; the rounding step follows CPython's
// math.fsum). Inputs are assumed finite.
func fsum(x []float64) float64 {
	var partials []float64
	for _, v := range x {
		i := 0
		for _, p := range partials {
			if math.Abs(v) < math.Abs(p) {
				v, p = p, v
			}
			hi := v + p
			lo := p - (hi - v)
			if lo != 0 {
				partials[i] = lo
				i++
			}
			v = hi
		}
		partials = append(partials[:i], v)
	}
	n := len(partials)
	if n == 0 {
		return 0
	}
	n--
	hi := partials[n]
	lo := 0.0
	for n > 0 {
		v := hi
		n--
		p := partials[n]
		hi = v + p
		lo = p - (hi - v)
		if lo != 0 {
			break
		}
	}
	// Round half-way cases the way exact arithmetic would: when lo and the
	// next partial have the same sign. Both are nonzero here (the loop broke
	// on lo ≠ 0, and only nonzero remainders are kept below the last).
	if n > 0 && math.Signbit(lo) == math.Signbit(partials[n-1]) {
		twice := lo * 2
		v := hi + twice
		if twice == v-hi {
			hi = v
		}
	}
	return hi
}
