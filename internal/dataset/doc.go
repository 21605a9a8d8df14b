// Package dataset holds nlsat's instance records and their JSONL files.
//
// # Records
//
// A Record has exactly the fields of the record specification, in a fixed
// order, every key present in every record with the same JSON type, so that
// Arrow (and so HuggingFace datasets) reads a file without a schema. The
// JSON Schema that ships with the toolkit is Schema; SchemaVersion names it.
//
// # Files
//
// Writers never leave a half-written file: they write to a temporary file in
// the target directory and rename it into place on Commit. Readers report
// errors with the file name and line number.
package dataset
