package solver

// GroundBudget is groundBudget, for the external tests.
const GroundBudget = groundBudget
