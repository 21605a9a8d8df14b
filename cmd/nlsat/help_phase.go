package main

// phaseSweepHelp describes, for nlsat phase-sweep's help, what the command
// does.
const phaseSweepHelp = `Phase-sweep draws instances at every point (m, n1, n2) of a grid, decides
each, and estimates P(sat) with a Wilson 95% interval. It writes into --out:

  points.csv, points.jsonl  counts, P(sat), interval and verdict per point
                            (identical bytes for the same flags, any -j)
  timing.csv                median and 90th-percentile solver time per point
                            (varies from run to run)
  crossings.csv             where P(sat) falls through 0.5 on each (n1, n2)
  quantifiers.csv           instances per point by the existential share of
                            their subject and object quantifiers
  region.json               the points whose P(sat) lies in the band, for
                            nlsat generate --region
  FIGURE.png, .svg, .csv    P(sat) and median time against α, for V, Z, A a
                            heat map over (α, β); PNG at 300 dpi, with the
                            numbers behind
  figN-*.png, .svg, .csv    the paper's Figure 2 and Appendix E views
                            (Figures 4-8), one panel per fragment

With --fragment all each fragment gets its own subdirectory, and the
multi-panel figures are written at the top.

Each point's estimate is checkpointed into .phase-sweep.checkpoint.json as
it is final; if the run is interrupted or killed, the same command resumes
with the points still open and ends in the same files.

`
