package prompt

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
)

// Variant is one prompt of a task's rows, as its columns: the prompt,
// the expected answer and the label that indexes the answers.
type Variant struct {
	Key     string   // suffix of the task name
	Prompt  string   // column holding the prompt
	Target  string   // column holding the expected answer
	Choices []string // answers indexed by label
	// Label is the column of the label that indexes Choices ("" for
	// "label").
	Label string
	// About says what the prompt is, on the first line of the headers.
	About string
	// Shots says that the prompt holds worked examples (TaskFile.ExampleID).
	Shots bool
	// Notes are the task's sentences in the headers.
	Notes Notes
}

// Notes are what the headers of a task's files say of the task beyond
// what every task's say. Each may span lines ("\n"); the header puts
// "# " before every line. An empty note is left out.
type Notes struct {
	// Shots is the sentence that the worked examples (%s, TaskFile.ExampleID)
	// are part of each prompt, before ": keep num_fewshot at 0." (""
	// for "The worked examples (%s) are part of each prompt").
	Shots string
	// ScoredBy is what nlsat eval breaks the scores down by.
	ScoredBy string
	// GenerateAside ends the sentence on how a generate_until task
	// scores, before its full stop.
	GenerateAside string
	// Generations says how nlsat eval reads a generate_until task's raw
	// generations.
	Generations string
	// CoT says what the chain-of-thought target is, after the prompt's
	// About; CoTEmpty says when it is empty.
	CoT, CoTEmpty string
}

// HarnessTask is one lm-evaluation-harness task over a prompt file.
type HarnessTask struct {
	Name    string
	Variant Variant
	// Generate makes a generate_until task scored by exact match of the
	// extracted answer (how the paper scored its models); otherwise the
	// task is multiple_choice, scored by comparing the log-likelihoods of
	// the answers.
	Generate bool
	// CoT makes a generate_until task whose target is the chain of
	// thought (target_cot, Options.CoT).
	CoT bool
}

// CoTTask returns the generate_until task over v whose target is the
// chain of thought, tag_KEY_cot.
func CoTTask(tag string, v Variant) HarnessTask {
	return HarnessTask{Name: tag + "_" + v.Key + "_cot", Variant: v, Generate: true, CoT: true}
}

// HarnessTasks returns the tasks over the variants of one prompt file,
// named after tag: for each variant a multiple_choice task (tag_KEY) and
// a generate_until task (tag_KEY_gen).
func HarnessTasks(tag string, vs ...Variant) []HarnessTask {
	var out []HarnessTask
	for _, v := range vs {
		out = append(out, HarnessTask{Name: tag + "_" + v.Key, Variant: v}, HarnessTask{Name: tag + "_" + v.Key + "_gen", Variant: v, Generate: true})
	}
	return out
}

var nonName = regexp.MustCompile(`[^a-z0-9_]+`)

// TaskTag makes a task tag of a file name: lower case, runs of other
// characters than letters, digits and _ turned into one _, and "nlsat_" in
// front unless it starts so already.
func TaskTag(base string) string {
	s := strings.Trim(nonName.ReplaceAllString(strings.ToLower(base), "_"), "_")
	if !strings.HasPrefix(s, "nlsat") {
		s = strings.TrimSuffix("nlsat_"+s, "_")
	}
	return s
}

// TaskFile says where a task's YAML finds its data and what to say about
// it in the header comment.
type TaskFile struct {
	Tag       string // tag shared by the tasks of one prompt file
	DataFiles string // data_files path, as lm-evaluation-harness should see it
	Source    string // the records the prompts were made from
	Rows      int
	ExampleID string
	// Gold is the path of the records for nlsat eval --gold, as seen from
	// the task file's directory (Path); "" for records read from stdin.
	Gold string
	// FewshotSplit names the split the few-shot demonstrations come from
	// (FewshotValidation or FewshotTrain), FewshotFiles its data_files
	// path and FewshotSource what its rows were made from.
	FewshotSplit, FewshotFiles, FewshotSource string
	// dir is the task files' directory; absolute says to write absolute
	// paths (Path).
	dir      string
	absolute bool
}

// Path is a file's path as the task files give it: relative to their
// directory, which lm_eval and nlsat eval are to be run from, or
// absolute with --absolute-paths (or where no relative path exists).
func (f TaskFile) Path(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		return name
	}
	if f.absolute {
		return abs
	}
	dir, err := filepath.Abs(cmp.Or(f.dir, "."))
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return abs
	}
	return rel
}

// WriteYAML writes the task's configuration. Strings that could need
// escaping are written as JSON strings, which YAML reads as double-quoted
// scalars.
func (t HarnessTask) WriteYAML(w io.Writer, f TaskFile) error {
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	v, n := t.Variant, t.Variant.Notes
	if t.CoT {
		t.writeCoT(p, f)
		_, err := w.Write(b.Bytes())
		return err
	}
	p("# %s, from nlsat prompt.\n", v.About)
	p("# %d instances of %s.\n", f.Rows, f.Source)
	if v.Shots {
		comment(p, fmt.Sprintf(cmp.Or(n.Shots, "The worked examples (%s) are part of each prompt"), f.ExampleID)+": keep num_fewshot at 0.")
	}
	f.writeFewshotNote(p)
	if t.Generate {
		comment(p, "Generates an answer and scores the first word (strict-match) or the first\nanswer word anywhere (flexible-extract) by exact match"+n.GenerateAside+".")
	} else {
		p("# Scores the log-likelihood of each answer after \"A: \"; the likelier one is\n# the model's choice.\n")
	}
	p("# data_files is read relative to the working directory, so run lm_eval here:\n")
	p("#   lm_eval --model hf --model_args pretrained=MODEL --include_path . --tasks %s --log_samples --output_path results\n", t.Name)
	if n.ScoredBy != "" {
		comment(p, "and score the samples it writes against the records, "+n.ScoredBy+":")
	} else {
		p("# and score the samples it writes against the records:\n")
	}
	p("#   nlsat eval --gold %s --pred results/MODEL/samples_%s_DATE.jsonl\n", f.gold(), t.Name)
	if t.Generate && n.Generations != "" {
		comment(p, n.Generations)
	}
	f.writeData(p, t.Name)
	p("doc_to_text: %s\n", v.Prompt)
	if t.Generate {
		t.writeGenerate(p)
	} else {
		label, choices := cmp.Or(v.Label, "label"), make([]string, len(v.Choices))
		for i, c := range v.Choices {
			choices[i] = q(c)
		}
		p("output_type: multiple_choice\ndoc_to_target: %s\ndoc_to_choice: [%s]\ntarget_delimiter: \" \"\n", label, strings.Join(choices, ", "))
		p("metric_list:\n  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n")
	}
	p("metadata:\n  version: 1.0\n")
	_, err := w.Write(b.Bytes())
	return err
}

// comment writes s as comment lines, "# " before each.
func comment(p func(string, ...any), s string) {
	for line := range strings.SplitSeq(s, "\n") {
		p("# %s\n", line)
	}
}

func (t HarnessTask) writeGenerate(p func(string, ...any)) {
	v := t.Variant
	p("output_type: generate_until\ndoc_to_target: %s\ntarget_delimiter: \" \"\n", v.Target)
	p("generation_kwargs:\n  until:\n    - %s\n    - %s\n  do_sample: false\n  temperature: 0.0\n  max_gen_toks: 16\n", q("\n\n"), q("Q:"))
	p("filter_list:\n")
	for _, f := range []struct{ name, re string }{
		{"strict-match", `(?i)^\s*(` + v.alternatives() + `)\b`},
		{"flexible-extract", `(?i)\b(` + v.alternatives() + `)\b`},
	} {
		p("  - name: %s\n    filter:\n      - function: regex\n        regex_pattern: %s\n      - function: take_first\n", q(f.name), q(f.re))
	}
	p("metric_list:\n  - metric: exact_match\n    aggregation: mean\n    higher_is_better: true\n    ignore_case: true\n    ignore_punctuation: true\n")
}

// alternatives is the regex alternation of the answers, in lower case, an
// answer that contains another before it (Python's re takes the first
// alternative that matches), so that "unsatisfiable" is not read as
// "satisfiable" nor "not entailed" as "entailed".
func (v Variant) alternatives() string {
	if len(v.Choices) != 2 {
		alts := make([]string, len(v.Choices))
		for i, c := range v.Choices {
			alts[i] = strings.ToLower(c)
		}
		return strings.Join(alts, "|")
	}
	alt := strings.ToLower(v.Choices[1]) + "|" + strings.ToLower(v.Choices[0])
	if strings.Contains(v.Choices[0], v.Choices[1]) {
		alt = strings.ToLower(v.Choices[0]) + "|" + strings.ToLower(v.Choices[1])
	}
	return alt
}

// q quotes s as a JSON string, a valid YAML double-quoted scalar.
func q(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// writeCoT writes the chain-of-thought task: the variant's prompt, the
// model generating a chain up to its answer line, the gold chain as
// target.
func (t HarnessTask) writeCoT(p func(string, ...any), f TaskFile) {
	v, n := t.Variant, t.Variant.Notes
	comment(p, v.About+", "+cmp.Or(n.CoT, "with a chain-of-thought target (target_cot)")+", from nlsat prompt --cot.")
	empty := "."
	if n.CoTEmpty != "" {
		empty = "; " + n.CoTEmpty + "."
	}
	comment(p, fmt.Sprintf("%d instances of %s", f.Rows, f.Source)+empty)
	f.writeFewshotNote(p)
	p("# exact_match only credits a generation equal to the gold chain; a chain\n# may differ and still be right, so score the samples step by step:\n")
	p("#   lm_eval --model hf --model_args pretrained=MODEL --include_path . --tasks %s --log_samples --output_path results\n", t.Name)
	p("#   nlsat eval --gold %s --pred results/MODEL/samples_%s_DATE.jsonl --chains\n", f.gold(), t.Name)
	f.writeData(p, t.Name)
	p("doc_to_text: %s\n", v.Prompt)
	p("output_type: generate_until\ndoc_to_target: target_cot\ntarget_delimiter: \" \"\n")
	p("generation_kwargs:\n  until:\n    - %s\n    - %s\n  do_sample: false\n  temperature: 0.0\n  max_gen_toks: 1024\n", q("\n\n"), q("Q:"))
	p("metric_list:\n  - metric: exact_match\n    aggregation: mean\n    higher_is_better: true\n    ignore_case: true\n")
	p("metadata:\n  version: 1.0\n")
}

// gold is the records' path in the header's nlsat eval command.
func (f TaskFile) gold() string {
	if f.Gold == "" {
		return "RECORDS.jsonl"
	}
	return f.Gold
}

// writeData writes the task's name, tag and data: the prompts as the
// test split, which is scored, and the few-shot split, which
// --num_fewshot draws its demonstrations from (see FewshotPath).
func (f TaskFile) writeData(p func(string, ...any), name string) {
	p("task: %s\n", q(name))
	p("tag:\n  - %s\n", q(f.Tag))
	p("dataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n    test: %s\n", q(f.DataFiles))
	if f.FewshotSplit != "" {
		p("    %s: %s\n", f.FewshotSplit, q(f.FewshotFiles))
	}
	p("test_split: test\n")
	if f.FewshotSplit != "" {
		p("fewshot_split: %s\n", f.FewshotSplit)
	}
	p("num_fewshot: 0\n")
}

// writeFewshotNote says in the header where --num_fewshot's
// demonstrations come from.
func (f TaskFile) writeFewshotNote(p func(string, ...any)) {
	if f.FewshotSplit != "" {
		p("# --num_fewshot K draws its demonstrations from the %s split\n# (%s: the prompts of %s), never from the scored records.\n", f.FewshotSplit, f.FewshotFiles, f.FewshotSource)
	}
}

// NewTaskFile names the tasks of a prompt file written to out: their
// tag is name, or else derived from out's base name (TaskTag); their
// data_files is out's base name (and the few-shot rows' FewshotPath's),
// or with absolute its absolute path.
func NewTaskFile(name, out string, absolute bool) (TaskFile, error) {
	if name == "" {
		name = TaskTag(strings.TrimSuffix(filepath.Base(out), filepath.Ext(out)))
	}
	tf := TaskFile{Tag: name, DataFiles: filepath.Base(out), FewshotFiles: filepath.Base(FewshotPath(out)), dir: filepath.Dir(out), absolute: absolute}
	if absolute {
		abs, err := filepath.Abs(out)
		if err != nil {
			return tf, err
		}
		tf.DataFiles, tf.FewshotFiles = abs, FewshotPath(abs)
	}
	return tf, nil
}
