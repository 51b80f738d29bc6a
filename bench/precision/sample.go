package main

import (
	"math/rand/v2"
	"slices"
)

// sampleSize is how many default-tier findings of each pass are read: the
// bar is nine of ten worth fixing.
const sampleSize = 10

// defaultSeed is the seed docs/PRECISION.md's sample is drawn with.
const defaultSeed = 2026

// A passSample is the findings drawn from one pass's default tier.
type passSample struct {
	Pass     string
	Total    int // default-tier findings of the pass over all targets
	Findings []finding
}

// drawSamples draws a sample for every pass, in passNames order.
func drawSamples(runs []targetRun, seed uint64) []passSample {
	byPass := map[string][]finding{}
	for _, tr := range runs {
		for _, f := range tr.Findings {
			if !f.Audit {
				byPass[f.Pass] = append(byPass[f.Pass], f)
			}
		}
	}
	var out []passSample
	for _, pass := range passNames(runs) {
		fs := byPass[pass]
		out = append(out, passSample{Pass: pass, Total: len(fs), Findings: draw(fs, seed)})
	}
	return out
}

// draw returns sampleSize of fs (all of them when there are fewer): it
// sorts a copy by module, file, line, column and message, shuffles it with
// a PCG generator seeded (seed, seed), and keeps the first ones. Each pass
// is drawn with a generator of its own, so a pass's sample depends only on
// its own findings and the seed, not on the order sendlint printed them in
// or on what the other passes found.
func draw(fs []finding, seed uint64) []finding {
	fs = slices.Clone(fs)
	sortFindings(fs)
	rng := rand.New(rand.NewPCG(seed, seed))
	rng.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
	return fs[:min(sampleSize, len(fs))]
}
