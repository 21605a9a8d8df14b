// Package dataset holds nlsat's instance records and their JSONL files.
//
// # Records
//
// A Record has exactly the fields of the record specification
// (docs/records.md), in a fixed order, every key present in every record with the same JSON type, so that
// Arrow (and so HuggingFace datasets) reads a file without a schema. The
// JSON Schema that ships with the toolkit is Schema; SchemaVersion names it.
//
// # Files
//
// Writers never leave a half-written file: they write to a temporary file in
// the target directory and rename it into place on Commit. Readers report
// errors with the file name and line number.
//
// # Formats
//
// JSONL is the canonical form: NewWriter encodes JSONL lines as gzip,
// zstd or Parquet (or keeps only text and label), and NewReader, which
// recognises the formats by their first bytes, gives the lines back, so
// a Parquet or compressed file reads as its JSONL twin. The same lines
// give the same bytes in every format.
package dataset
