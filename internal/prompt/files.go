package prompt

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/nlsat/nlsat/internal/atomicfile"
	"github.com/nlsat/nlsat/internal/inputerr"
)

// WriteFiles writes the rows to out (JSONL; "-" for stdout) and beside it
// the task files of tag tf.Tag, each atomically, the data first so that a
// task file never names a file that is not there. It returns the tasks'
// names. An output that cannot be written is an inputerr.Error.
// With tf.FewshotSplit set, the few-shot rows go to FewshotPath(out).
func WriteFiles(out string, stdout io.Writer, rows, fewshot []any, tasks []HarnessTask, tf TaskFile) ([]string, error) {
	data, err := writeRows(out, stdout, rows)
	if err != nil {
		return nil, err
	}
	defer data.Abort()
	files := []*atomicfile.File{data}
	if tf.FewshotSplit != "" {
		few, err := writeRows(FewshotPath(out), stdout, fewshot)
		if err != nil {
			return nil, err
		}
		defer few.Abort()
		files = append(files, few)
	}
	var names []string
	for _, t := range tasks {
		f, err := atomicfile.Create(filepath.Join(filepath.Dir(out), t.Name+".yaml"), stdout)
		if err != nil {
			return nil, &inputerr.Error{Err: err}
		}
		defer f.Abort()
		if err := t.WriteYAML(f, tf); err != nil {
			return nil, err
		}
		names, files = append(names, t.Name), append(files, f)
	}
	for _, f := range files {
		if err := f.Commit(); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// writeRows writes rows as JSONL to an atomic file, not yet committed.
func writeRows(name string, stdout io.Writer, rows []any) (*atomicfile.File, error) {
	f, err := atomicfile.Create(name, stdout)
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			f.Abort()
			return nil, err
		}
	}
	return f, nil
}
