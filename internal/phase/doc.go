// Package phase maps the phase-change region of a fragment: it sweeps a
// grid of (m, n1, n2) points, estimates P(sat) at each with a Wilson
// interval, finds the points whose P(sat) lies in a band (the paper's
// [0.35, 0.65]), writes them as a region file for the generator, and draws
// the figures.
//
// # Determinism
//
// Sample s of point (m, n1, n2) of fragment f draws its instance from
// rand.NewPCG(seed, Stream(f, point, s)) alone, so an instance does not
// depend on the number of workers, on the grid around its point, or on
// whether the sweep is uniform or adaptive. Counts, estimates, intervals,
// verdicts and the region are therefore identical for any worker count;
// only solver times vary, and they are kept out of points.csv and
// points.jsonl, in timing.csv.
//
// # Estimates
//
// P(sat) is sat / (sat + unsat); instances a solver leaves unknown are
// counted but not in the estimate. A sweep with the paper's labeller
// (Plan.Labeller; one plain Z3 check per instance) leaves many satisfiable
// instances unknown, which biases its P(sat) low as the paper's was; its
// region says where the paper's method puts the band, never a label. Its
// interval is the Wilson score
// interval at 95% (normal quantile from gonum's distuv). A point's verdict
// says whether the interval lies above, inside or below the band, or
// straddles an edge.
//
// # Adaptive sampling
//
// With Config.Budget above Config.Samples, every point starts with
// Samples instances and doubles its count in rounds while its verdict is
// "straddles", until Budget is spent. Batch sizes and the stopping rule
// depend only on the counts, so adaptive sweeps are deterministic too.
//
// # Region files
//
// A region (region.json) records the band, the confidence, the seed, the
// sample counts, the sampler parameters, the toolkit version and the
// solver, and every point of one fragment whose estimated P(sat) lies in
// the band, with its interval, count and verdict.
//
// # Quantifier counts
//
// Every instance's quantifiers are counted as it is decided: the share of
// existential quantifiers among the subject quantifiers (the outermost of
// each formula) and among the object quantifiers (those nested inside),
// each binned to tenths (QuantBins). A point records, per pair of bins,
// its instances and how many are sat and unsat (Estimate.Quant,
// quantifiers.csv), which is what the paper's Appendix E plots P(sat)
// against. The counts change no label and no byte of points.csv.
//
// # Figures
//
// Figures are drawn with gonum/plot (internal/figure) at their size in
// print, as PNG at 300 dpi and as SVG, each with the CSV of the numbers it
// shows. Each fragment gets P(sat) against α for up to four n1 with Wilson
// bars over the shaded band, the median solver time, and for V, Z and A a
// heat map over (α, β) with the band's contour (Figures). Across fragments
// come the multi-panel figures of the paper, one panel per fragment: its
// Figure 2 and the Appendix E views, Figures 4 to 8 (PaperFigures). For V,
// Z and A the curves are drawn at one n2. Every figure is drawn from the
// sweep's files as read back (LoadSweep), so nlsat plot redraws the same
// bytes.
package phase
