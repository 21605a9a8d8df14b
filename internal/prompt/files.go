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
func WriteFiles(out string, stdout io.Writer, rows []Row, tf TaskFile) ([]string, error) {
	tasks := Tasks(tf.Tag)
	if tf.CoT {
		tasks = append(tasks, CoTTask(tf.Tag))
	}
	return writeFiles(out, stdout, rows, tasks, tf)
}

// WriteEntailFiles is WriteFiles for entailment rows and their tasks
// (EntailTasks; the few-shot ones when the rows have worked examples).
func WriteEntailFiles(out string, stdout io.Writer, rows []EntailRow, tf TaskFile) ([]string, error) {
	fewshot := len(rows) > 0 && len(rows[0].ExampleIDs) > 0
	return writeFiles(out, stdout, rows, EntailTasks(tf.Tag, fewshot), tf)
}

func writeFiles[R any](out string, stdout io.Writer, rows []R, tasks []Task, tf TaskFile) ([]string, error) {
	data, err := atomicfile.Create(out, stdout)
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	defer data.Abort()
	enc := json.NewEncoder(data)
	enc.SetEscapeHTML(false)
	for i := range rows {
		if err := enc.Encode(&rows[i]); err != nil {
			return nil, err
		}
	}
	var names []string
	files := []*atomicfile.File{data}
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
