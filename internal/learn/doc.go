// Package learn is the small machine-learning kernel that the shortcut
// audit and the build's balance share: logistic regression on sparse
// (Design, FitSparse) and standardised dense features (FitLogistic),
// fitted by L-BFGS; gradient-boosted trees (FitBoosted, FitBoostedFrom);
// and the plug-in mutual information of a discretised feature with a
// binary label (PluginMI). Every fit is deterministic and independent of
// the number of cores, and every model's JSON form round-trips exactly.
// Labels are 0 and 1.
package learn
