package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestDeployExamples checks the array-job examples docs/scaling.md points to:
// the Kubernetes manifest is an Indexed Job whose completions match the
// shard count it passes, and the shell scripts parse.
func TestDeployExamples(t *testing.T) {
	data, err := os.ReadFile("../../deploy/kubernetes-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Spec       struct {
			Completions    int    `yaml:"completions"`
			CompletionMode string `yaml:"completionMode"`
			Template       struct {
				Spec struct {
					Containers []struct {
						Command []string `yaml:"command"`
						Args    []string `yaml:"args"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(data, &job); err != nil {
		t.Fatal(err)
	}
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Spec.CompletionMode != "Indexed" || len(job.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("not an Indexed Job: %+v", job)
	}
	cmdline := strings.Join(job.Spec.Template.Spec.Containers[0].Args, " ")
	m := regexp.MustCompile(`--shard-count (\d+)`).FindStringSubmatch(cmdline)
	if m == nil || m[1] != strings.TrimSpace(strings.Fields(strings.SplitN(string(data), "completions:", 2)[1])[0]) {
		t.Errorf("--shard-count in %q does not match completions %d", cmdline, job.Spec.Completions)
	}
	if !strings.Contains(cmdline, "$JOB_COMPLETION_INDEX") || !strings.Contains(cmdline, "nlsat split") {
		t.Errorf("the job does not run nlsat split per index: %q", cmdline)
	}
	for _, script := range []string{"../../deploy/slurm-array.sh", "../../deploy/slurm-build.sh", "../../deploy/parallel.sh", "../../scripts/slurm-test.sh"} {
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
