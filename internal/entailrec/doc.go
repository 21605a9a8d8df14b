// Package entailrec is the record of the entailment task: its schema
// (nlsat-entail/1), the three labels in MNLI's order with their names and
// the binary label, the record's fields, their invariants (Validate) and
// its JSONL encoding. It stands on the records floor beside dataset, so
// that the build that writes these records (entail) and the analyses
// that read them (audit, eval, prompt) share it without importing each
// other.
package entailrec
