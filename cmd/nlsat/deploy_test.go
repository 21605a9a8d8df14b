package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestDeployExamples checks that the shell scripts docs/scaling.md points
// to parse (TestKubernetesManifests and TestKubernetesBuild check the
// Kubernetes manifests and their script further).
func TestDeployExamples(t *testing.T) {
	for _, script := range []string{"../../deploy/slurm-array.sh", "../../deploy/slurm-build.sh", "../../deploy/parallel.sh", "../../deploy/kubernetes-build.sh", "../../scripts/slurm-test.sh"} {
		if out, err := exec.Command("bash", "-n", script).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", script, err, out)
		}
	}
}

// TestCitation checks CITATION.cff: the fields the Citation File Format
// 1.2.0 requires, and the paper whose method the toolkit implements among
// its references.
func TestCitation(t *testing.T) {
	data, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	var cff struct {
		Version    string              `yaml:"cff-version"`
		Message    string              `yaml:"message"`
		Title      string              `yaml:"title"`
		Authors    []map[string]string `yaml:"authors"`
		References []struct {
			Title   string              `yaml:"title"`
			Authors []map[string]string `yaml:"authors"`
			Year    int                 `yaml:"year"`
			URL     string              `yaml:"url"`
		} `yaml:"references"`
	}
	if err := yaml.Unmarshal(data, &cff); err != nil {
		t.Fatal(err)
	}
	if cff.Version != "1.2.0" || cff.Message == "" || cff.Title == "" || len(cff.Authors) == 0 {
		t.Errorf("CITATION.cff lacks a required field: %+v", cff)
	}
	var families []string
	for _, r := range cff.References {
		for _, a := range r.Authors {
			families = append(families, a["family-names"])
		}
		if strings.Contains(r.Title, "Natural Language Satisfiability") && r.Year == 2025 && r.URL == "https://arxiv.org/abs/2508.17153" {
			if got := strings.Join(families, ", "); got != "Madusanka, Pratt-Hartmann, Batista-Navarro" {
				t.Errorf("the paper's authors: %s", got)
			}
			return
		}
	}
	t.Error("CITATION.cff does not cite arXiv 2508.17153")
}
