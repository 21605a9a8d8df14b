package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// kubeObject is the part of a Kubernetes object deploy/kubernetes-build.sh
// writes that the tests read: a PersistentVolumeClaim or a Job.
type kubeObject struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		AccessModes      []string `yaml:"accessModes"`
		StorageClassName string   `yaml:"storageClassName"`
		Resources        struct {
			Requests map[string]string `yaml:"requests"`
		} `yaml:"resources"`
		Completions          *int   `yaml:"completions"`
		Parallelism          *int   `yaml:"parallelism"`
		CompletionMode       string `yaml:"completionMode"`
		BackoffLimit         *int   `yaml:"backoffLimit"`
		BackoffLimitPerIndex *int   `yaml:"backoffLimitPerIndex"`
		Template             struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec struct {
				RestartPolicy string          `yaml:"restartPolicy"`
				Containers    []kubeContainer `yaml:"containers"`
				Volumes       []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type kubeContainer struct {
	Name    string   `yaml:"name"`
	Image   string   `yaml:"image"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom *struct {
			ResourceFieldRef struct {
				Resource string `yaml:"resource"`
				Divisor  string `yaml:"divisor"`
			} `yaml:"resourceFieldRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

// kubeObjects decodes a stream of YAML documents, refusing fields no
// struct above names, so a misspelt key in a manifest fails.
func kubeObjects(r io.Reader) ([]kubeObject, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var objs []kubeObject
	for {
		var o kubeObject
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, err
		}
		objs = append(objs, o)
	}
}

// quantity reads a Kubernetes resource quantity (2, 500m, 2Gi, 512Mi) in
// the unit divisor 1 gives it: cores rounded up, or bytes.
func quantity(q string) (int64, error) {
	for suffix, mult := range map[string]int64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40} {
		if v, ok := strings.CutSuffix(q, suffix); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n * mult, err
		}
	}
	if v, ok := strings.CutSuffix(q, "m"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		return (n + 999) / 1000, err
	}
	return strconv.ParseInt(q, 10, 64)
}

// fakeKubectl stands in for kubectl in TestKubernetesBuild: it keeps
// claims and Jobs as files under $NLSAT_FAKE_KUBE and runs a Job when it
// is applied, on this machine, each index as a process with the
// container's command, arguments and environment (limits read through
// resourceFieldRef as the kubelet gives them), started again up to its
// backoff limit. The volume is the directory named by the container's
// mount path, which must exist. If $NLSAT_FAKE_KUBE_KILL names JOB/INDEX,
// the first process of that index, each time the Job is applied, is
// killed with SIGKILL after $NLSAT_FAKE_KUBE_KILL_AFTER, as a node lost
// mid-run, and the kill is written to the file kills. It answers only the
// calls the script makes.
func fakeKubectl(args []string) int {
	state := os.Getenv("NLSAT_FAKE_KUBE")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "fake kubectl: "+format+"\n", a...)
		return 2
	}
	switch {
	case len(args) == 3 && args[0] == "get" && args[1] == "pvc":
		if _, err := os.Stat(filepath.Join(state, "pvc-"+args[2])); err != nil {
			return fail("persistentvolumeclaims %q not found", args[2])
		}
		return 0
	case len(args) == 5 && args[0] == "get" && args[1] == "job" && args[3] == "-o" &&
		args[4] == `jsonpath={.status.succeeded}/{.status.failed}/{.status.conditions[?(@.status=="True")].type}`:
		b, err := os.ReadFile(filepath.Join(state, "job-"+args[2]))
		if err != nil {
			return fail("jobs %q not found", args[2])
		}
		os.Stdout.Write(b)
		return 0
	case len(args) == 2 && args[0] == "logs" && strings.HasPrefix(args[1], "job/"):
		b, err := os.ReadFile(filepath.Join(state, "log-"+strings.TrimPrefix(args[1], "job/")))
		if err != nil {
			return fail("%s not found", args[1])
		}
		os.Stdout.Write(b)
		return 0
	case len(args) > 0 && args[0] == "delete":
		if !slices.Contains(args, "--cascade=foreground") || !slices.Contains(args, "--wait") {
			return fail("delete without waiting for the pods to go: %q", args)
		}
		for _, a := range args[1:] {
			if name, ok := strings.CutPrefix(a, "job/"); ok {
				os.Remove(filepath.Join(state, "job-"+name))
				os.Remove(filepath.Join(state, "log-"+name))
			}
		}
		return 0
	case len(args) == 3 && args[0] == "apply" && args[1] == "-f" && args[2] == "-":
		objs, err := kubeObjects(os.Stdin)
		if err != nil {
			return fail("%v", err)
		}
		for _, o := range objs {
			switch o.Kind {
			case "PersistentVolumeClaim":
				if !slices.Contains(o.Spec.AccessModes, "ReadWriteMany") {
					return fail("claim %s is not ReadWriteMany", o.Metadata.Name)
				}
				os.WriteFile(filepath.Join(state, "pvc-"+o.Metadata.Name), nil, 0o644)
			case "Job":
				if err := runFakeJob(state, o); err != nil {
					return fail("job %s: %v", o.Metadata.Name, err)
				}
			default:
				return fail("kind %q", o.Kind)
			}
		}
		return 0
	}
	return fail("unsupported call %q", args)
}

// runFakeJob runs every index of job and records its pods' counts and
// its condition, Complete or Failed, and their output.
func runFakeJob(state string, job kubeObject) error {
	pod := job.Spec.Template.Spec
	if len(pod.Containers) != 1 || len(pod.Volumes) != 1 || pod.RestartPolicy != "Never" {
		return fmt.Errorf("want one container, one volume and restartPolicy Never: %+v", pod)
	}
	if _, err := os.Stat(filepath.Join(state, "pvc-"+pod.Volumes[0].PersistentVolumeClaim.ClaimName)); err != nil {
		return fmt.Errorf("claim %q does not exist", pod.Volumes[0].PersistentVolumeClaim.ClaimName)
	}
	c := pod.Containers[0]
	if c.Image != os.Getenv("NLSAT_FAKE_KUBE_IMAGE") || len(c.VolumeMounts) != 1 || c.VolumeMounts[0].Name != pod.Volumes[0].Name {
		return fmt.Errorf("image %q, mounts %+v", c.Image, c.VolumeMounts)
	}
	if fi, err := os.Stat(c.VolumeMounts[0].MountPath); err != nil || !fi.IsDir() {
		return fmt.Errorf("mount path %q is not the shared directory", c.VolumeMounts[0].MountPath)
	}
	env := os.Environ()
	for _, e := range c.Env {
		v := e.Value
		if e.ValueFrom != nil {
			res, ok := strings.CutPrefix(e.ValueFrom.ResourceFieldRef.Resource, "limits.")
			if !ok || e.ValueFrom.ResourceFieldRef.Divisor != "1" {
				return fmt.Errorf("env %s: %+v", e.Name, e.ValueFrom)
			}
			n, err := quantity(c.Resources.Limits[res])
			if err != nil {
				return fmt.Errorf("env %s: limit %s %q: %v", e.Name, res, c.Resources.Limits[res], err)
			}
			v = fmt.Sprint(n)
		}
		env = append(env, e.Name+"="+v)
	}
	completions, tries := 1, 7
	if job.Spec.Completions != nil {
		completions = *job.Spec.Completions
	}
	if job.Spec.CompletionMode == "Indexed" && job.Spec.BackoffLimitPerIndex != nil {
		tries = 1 + *job.Spec.BackoffLimitPerIndex
	} else if job.Spec.BackoffLimit != nil {
		tries = 1 + *job.Spec.BackoffLimit
	}
	var (
		mu   sync.Mutex
		logs bytes.Buffer
		wg   sync.WaitGroup
	)
	fails := make([]int, completions) // failed tries per index
	for i := range completions {
		wg.Go(func() {
			for try := range tries {
				var out bytes.Buffer
				cmd := exec.Command(c.Command[0], append(c.Command[1:], c.Args...)...)
				cmd.Env = slices.Clip(env) // each index appends its own
				if job.Spec.CompletionMode == "Indexed" {
					cmd.Env = append(cmd.Env, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
				}
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Start(); err != nil {
					fails[i] = tries
					return
				}
				var killed atomic.Bool
				if try == 0 && os.Getenv("NLSAT_FAKE_KUBE_KILL") == fmt.Sprintf("%s/%d", job.Metadata.Name, i) {
					after, _ := time.ParseDuration(os.Getenv("NLSAT_FAKE_KUBE_KILL_AFTER"))
					time.AfterFunc(after, func() { killed.Store(cmd.Process.Kill() == nil) })
				}
				err := cmd.Wait()
				if killed.Load() && err != nil {
					if f, ferr := os.OpenFile(filepath.Join(state, "kills"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); ferr == nil {
						fmt.Fprintf(f, "%s/%d: %v\n", job.Metadata.Name, i, err)
						f.Close()
					}
				}
				mu.Lock()
				fmt.Fprintf(&logs, "index %d, try %d (pid %d): %v\n%s", i, try, cmd.Process.Pid, err, out.Bytes())
				mu.Unlock()
				if err == nil {
					return
				}
				fails[i]++
			}
		})
	}
	wg.Wait()
	// The Job's state as the script asks for it: pods succeeded, pods
	// failed, and its condition.
	succeeded, podsFailed, condition := 0, 0, "Complete"
	for _, f := range fails {
		podsFailed += f
		if f < tries {
			succeeded++
		} else {
			condition = "Failed"
		}
	}
	status := fmt.Sprintf("%d/%d/%s", succeeded, podsFailed, condition)
	if err := os.WriteFile(filepath.Join(state, "log-"+job.Metadata.Name), logs.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(state, "job-"+job.Metadata.Name), []byte(status), 0o644)
}

// TestKubernetesBuild runs deploy/kubernetes-build.sh against fakeKubectl:
// a 3-shard V split whose shard 1 loses its first pod mid-run in every
// turn, three turns
// of shards and merge, and the merged dataset compared byte for byte with
// a one-process build. It holds what a cluster cannot check here: the
// script's turns and waits, the manifests' shell lines and quoting, the
// environment taken from the limits, and that a shard started again
// resumes.
func TestKubernetesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a split three times")
	}
	dir := t.TempDir()
	bin, data, state := filepath.Join(dir, "bin"), filepath.Join(dir, "data"), filepath.Join(dir, "state")
	for _, d := range []string{bin, data, state} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, envVar := range map[string]string{"nlsat": "NLSAT_TEST_RUN_MAIN=1", "kubectl": "NLSAT_TEST_FAKE_KUBECTL=1"} {
		script := fmt.Sprintf("#!/bin/sh\n%s exec %q \"$@\"\n", envVar, self)
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const killAfter = "200ms" // each turn of a shard takes 0.5–1 s here
	build := []string{"split", "-q", "--fragment", "V", "--train", "300", "--validation", "60", "--test", "60", "--seed", "5"}

	one := exec.Command(self, append(build, "--out", filepath.Join(dir, "one"))...)
	one.Env = append(os.Environ(), "NLSAT_TEST_RUN_MAIN=1")
	if out, err := one.CombinedOutput(); err != nil {
		t.Fatalf("one process: %v\n%s", err, out)
	}

	cmd := exec.Command("bash", append([]string{"../../deploy/kubernetes-build.sh", "3", "shards", "merged"}, build...)...)
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"IMAGE=registry.example.org/nlsat:test", "NLSAT_FAKE_KUBE_IMAGE=registry.example.org/nlsat:test",
		"MOUNT="+data, "CPUS=1", "MEMORY=1Gi", "POLL=0",
		"NLSAT_FAKE_KUBE="+state, "NLSAT_FAKE_KUBE_KILL=nlsat-shards/1", "NLSAT_FAKE_KUBE_KILL_AFTER="+killAfter)
	out, err := cmd.CombinedOutput()
	if err != nil {
		logs, _ := os.ReadFile(filepath.Join(state, "log-nlsat-shards"))
		t.Fatalf("kubernetes-build.sh: %v\n%s\nthe shards' last log:\n%s", err, out, logs)
	}
	if !strings.Contains(string(out), "job nlsat-shards: pods succeeded 3, failed 1") || !strings.Contains(string(out), "job nlsat-merge: pods succeeded 1, failed 0") {
		t.Errorf("the script did not report the Jobs' pods:\n%s", out)
	}
	if !strings.Contains(string(out), "done: "+filepath.Join(data, "merged")) {
		t.Errorf("the script did not say where the dataset is:\n%s", out)
	}
	sameFiles(t, tree(t, filepath.Join(dir, "one")), tree(t, filepath.Join(data, "merged")))
	if kills, _ := os.ReadFile(filepath.Join(state, "kills")); !strings.Contains(string(kills), "nlsat-shards/1: signal: killed") {
		t.Errorf("no shard was killed mid-run (kills: %q); the test did not try a resumed shard", kills)
	}
}

// TestKubernetesManifests holds deploy/kubernetes-job.yaml to what
// deploy/kubernetes-build.sh --print writes for the paper preset of A as 8
// shards, and checks what the manifests must say: a ReadWriteMany claim,
// an Indexed Job of 8 pods each running its own shard with workers and
// heap limit from its limits, and a merge Job of those shards.
func TestKubernetesManifests(t *testing.T) {
	cmd := exec.Command("bash", "../../deploy/kubernetes-build.sh", "--print", "8", "nlsat-A-shards", "nlsat-A", "split", "--fragment", "A", "--preset", "paper", "--seed", "1")
	cmd.Env = append(os.Environ(), "IMAGE=registry.example.org/nlsat:latest")
	printed, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("../../deploy/kubernetes-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body := string(file)
	for strings.HasPrefix(body, "#") {
		_, body, _ = strings.Cut(body, "\n")
	}
	if body != string(printed) {
		t.Errorf("deploy/kubernetes-job.yaml is not what kubernetes-build.sh --print writes for its example; write it again:\n%s", printed)
	}
	objs, err := kubeObjects(bytes.NewReader(printed))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 3 || objs[0].Kind != "PersistentVolumeClaim" || objs[1].Kind != "Job" || objs[2].Kind != "Job" {
		t.Fatalf("want a claim and two Jobs, got %+v", objs)
	}
	if !slices.Equal(objs[0].Spec.AccessModes, []string{"ReadWriteMany"}) {
		t.Errorf("claim access modes %v", objs[0].Spec.AccessModes)
	}
	shards, merge := objs[1], objs[2]
	if shards.APIVersion != "batch/v1" || shards.Spec.CompletionMode != "Indexed" || *shards.Spec.Completions != 8 || *shards.Spec.Parallelism != 8 {
		t.Errorf("shards are not an Indexed Job of 8: %+v", shards.Spec)
	}
	for _, job := range []kubeObject{shards, merge} {
		c := job.Spec.Template.Spec.Containers[0]
		line := strings.Join(append(c.Command, c.Args...), " ")
		if job.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != objs[0].Metadata.Name {
			t.Errorf("%s does not mount the claim", job.Metadata.Name)
		}
		if c.Resources.Limits["cpu"] == "" || c.Resources.Limits["memory"] == "" {
			t.Errorf("%s has no limits: %+v", job.Metadata.Name, c.Resources)
		}
		from := map[string]string{}
		for _, e := range c.Env {
			if e.ValueFrom != nil {
				from[e.Name] = e.ValueFrom.ResourceFieldRef.Resource
			}
		}
		if from["GOMAXPROCS"] != "limits.cpu" || from["GOMEMLIMIT"] != "limits.memory" {
			t.Errorf("%s: workers and heap limit not from the pod's limits: %v", job.Metadata.Name, from)
		}
		want := []string{"--shard-count 8", `--shard-index "$JOB_COMPLETION_INDEX"`, `--out "$SHARDS/shard-$JOB_COMPLETION_INDEX"`, "split --fragment A --preset paper --seed 1"}
		if job.Metadata.Name == "nlsat-merge" {
			want = []string{`nlsat merge --out "$OUT" "$SHARDS"/shard-*`}
		}
		for _, w := range want {
			if !strings.Contains(line, w) {
				t.Errorf("%s runs %q, without %q", job.Metadata.Name, line, w)
			}
		}
	}
}
