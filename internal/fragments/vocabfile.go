package fragments

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// VocabularyHeader opens every vocabulary file WriteText writes; it
// documents the format for a user who edits the file.
const VocabularyHeader = `# nlsat vocabulary: one word per line, in the order the sampler draws from.
#   noun ARTICLE WORD   a profession noun with its article, "a" or "an"
#   verb BASE THIRD     a transitive verb that takes a person as object,
#                       with its third-person-singular form
# Words are lower-case letters only, each used once. "#" starts a comment.
`

// ReadLexicon reads a vocabulary file (the format of VocabularyHeader) and
// checks it as NewLexicon does. Errors name the file (name) and the line,
// and say what was expected there; a file that is valid line by line but
// not as a whole (a duplicate word, say) gets every problem listed.
func ReadLexicon(r io.Reader, name string) (*Lexicon, error) {
	var nouns []Noun
	var verbs []Verb
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "noun" && len(f) == 3:
			nouns = append(nouns, Noun{Word: f[2], Article: f[1]})
		case f[0] == "verb" && len(f) == 3:
			verbs = append(verbs, Verb{Base: f[1], Third: f[2]})
		default:
			return nil, fmt.Errorf("%s:%d: %q: expected \"noun ARTICLE WORD\" or \"verb BASE THIRD\"", name, n, strings.TrimSpace(line))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(nouns) == 0 {
		return nil, fmt.Errorf("%s: no nouns: expected lines \"noun ARTICLE WORD\"", name)
	}
	lx, err := NewLexicon(nouns, verbs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return lx, nil
}

// WriteText writes lx in the vocabulary file format, header first;
// ReadLexicon reads it back to an equal lexicon.
func (lx *Lexicon) WriteText(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString(VocabularyHeader)
	for _, n := range lx.nouns {
		fmt.Fprintf(&b, "noun %-2s %s\n", n.Article, n.Word)
	}
	for _, v := range lx.verbs {
		fmt.Fprintf(&b, "verb %s %s\n", v.Base, v.Third)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Digest identifies the lexicon by its words, articles and forms, in
// order: a short hexadecimal hash that manifests and cards record.
func (lx *Lexicon) Digest() string {
	var b bytes.Buffer
	_ = lx.WriteText(&b)
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:8])
}

// lexiconJSON is the JSON form of a lexicon, which plans carry so that a
// manifest alone says which words a dataset was drawn from.
type lexiconJSON struct {
	Nouns []nounJSON `json:"nouns"`
	Verbs []verbJSON `json:"verbs"`
}

type nounJSON struct {
	Article string `json:"article"`
	Word    string `json:"word"`
}

type verbJSON struct {
	Base  string `json:"base"`
	Third string `json:"third"`
}

// MarshalJSON writes the lexicon's nouns and verbs in order.
func (lx *Lexicon) MarshalJSON() ([]byte, error) {
	var j lexiconJSON
	for _, n := range lx.nouns {
		j.Nouns = append(j.Nouns, nounJSON{n.Article, n.Word})
	}
	for _, v := range lx.verbs {
		j.Verbs = append(j.Verbs, verbJSON{v.Base, v.Third})
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the form MarshalJSON writes and checks it as
// NewLexicon does.
func (lx *Lexicon) UnmarshalJSON(data []byte) error {
	var j lexiconJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if len(j.Nouns) == 0 {
		return errors.New("vocabulary without nouns")
	}
	nouns := make([]Noun, len(j.Nouns))
	for i, n := range j.Nouns {
		nouns[i] = Noun{Word: n.Word, Article: n.Article}
	}
	verbs := make([]Verb, len(j.Verbs))
	for i, v := range j.Verbs {
		verbs[i] = Verb(v)
	}
	got, err := NewLexicon(nouns, verbs)
	if err != nil {
		return err
	}
	*lx = *got
	return nil
}

// LoadLexicon reads the vocabulary file at path (see ReadLexicon).
func LoadLexicon(path string) (*Lexicon, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vocabulary file: %w", err)
	}
	defer f.Close()
	return ReadLexicon(f, path)
}
