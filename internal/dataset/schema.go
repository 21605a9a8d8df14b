package dataset

import _ "embed"

// Schema is the JSON Schema of a record, version SchemaVersion.
//
//go:embed schema.json
var Schema []byte
