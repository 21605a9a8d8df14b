package split

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// hyparquetScript is the script that prints a Parquet file as hyparquet
// (pure JavaScript, independent of the Go writer) reads it; .ci/run
// installs hyparquet beside it.
const hyparquetScript = "../../scripts/hyparquet/read.mjs"

// readWithHyparquet returns the schema line and the rows of a Parquet
// file as hyparquet reads them. Without node or hyparquet the test is
// skipped, except in CI (CI set), where they must be there.
func readWithHyparquet(t *testing.T, name string) (header []byte, rows [][]byte) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(filepath.Dir(hyparquetScript), "node_modules", "hyparquet", "package.json"))
	}
	if err != nil {
		msg := "the independent Parquet reader needs node and hyparquet (npm ci --prefix scripts/hyparquet): " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out, err := exec.Command(node, hyparquetScript, name).Output()
	if err != nil {
		t.Fatalf("hyparquet on %s: %v", name, err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	return lines[0], lines[1:]
}

// jsonValue decodes a JSON text, numbers as written.
func jsonValue(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
	return v
}

// checkIndependentReader reads a Parquet split file with hyparquet and
// compares every row with the record of its JSONL twin, and the file's
// schema with the column types the card declares.
func checkIndependentReader(t *testing.T, parquetFile, jsonlTwin string) {
	t.Helper()
	header, rows := readWithHyparquet(t, parquetFile)
	twin, err := os.Open(jsonlTwin)
	if err != nil {
		t.Fatal(err)
	}
	defer twin.Close()
	sc := bufio.NewScanner(twin)
	sc.Buffer(nil, 1<<26)
	n := 0
	for ; sc.Scan(); n++ {
		if n >= len(rows) {
			t.Fatalf("%s: hyparquet reads %d rows, the JSONL twin has more", parquetFile, len(rows))
		}
		if got, want := jsonValue(t, rows[n]), jsonValue(t, sc.Bytes()); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: row %d reads as\n%s\nwant\n%s", parquetFile, n+1, rows[n], sc.Bytes())
		}
	}
	if n != len(rows) {
		t.Errorf("%s: hyparquet reads %d rows, the JSONL twin has %d", parquetFile, len(rows), n)
	}
	var meta struct {
		Schema []struct{ Name, Type, Logical, Repetition string }
	}
	if err := json.Unmarshal(header, &meta); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range meta.Schema[1:] {
		got = append(got, e.Name+" "+e.Type+" "+e.Logical)
	}
	// The card's features as Parquet: ClassLabel and int64 as INT64,
	// Sequence as LIST, the certificate as a group.
	for _, want := range []string{"label INT64 INTEGER", "sentences  LIST", "certificate  ", "model_size INT64 INTEGER", "mus  LIST", "alpha DOUBLE ", "text BYTE_ARRAY STRING"} {
		if !strings.Contains(strings.Join(got, "\n")+"\n", want+"\n") {
			t.Errorf("%s: schema as hyparquet reads it has no %q:\n%s", parquetFile, want, strings.Join(got, "\n"))
		}
	}
}
