#!/bin/bash
# An nlsat build on Kubernetes: an Indexed Job of N shards and a merge Job
# that take turns, on a volume every pod mounts. Usage:
#
#   IMAGE=REF deploy/kubernetes-build.sh N SHARDS OUT COMMAND [ARGS...]
#   IMAGE=REF deploy/kubernetes-build.sh --print N SHARDS OUT COMMAND [ARGS...]
#
# for example
#
#   docker build -t registry.example.org/nlsat:1 . && docker push registry.example.org/nlsat:1
#   IMAGE=registry.example.org/nlsat:1 deploy/kubernetes-build.sh 8 nlsat-A-shards nlsat-A split --fragment A --preset paper --seed 1
#
# IMAGE is an image with nlsat on its PATH (the Dockerfile at the root of
# the repository builds one). SHARDS and OUT are paths on the shared
# volume: the claim $CLAIM (default nlsat-data), mounted at $MOUNT (default
# /data) in every pod. The script creates the claim if it does not exist:
# $STORAGE (default 20Gi), ReadWriteMany, since every shard's pod writes to
# it at once, of the class $STORAGE_CLASS (default: the cluster's default,
# which must offer ReadWriteMany, such as NFS or CephFS).
#
# Pod i of the Job named $NAME-shards (NAME defaults to nlsat) runs
# `nlsat COMMAND ARGS --shard-index i --shard-count N --out SHARDS/shard-i`,
# and the Job $NAME-merge runs `nlsat merge --out OUT SHARDS/shard-*`.
# Every shard's pod asks for, and is limited to, $CPUS cores (default 2)
# and $MEMORY (default 2Gi); the merge's pod $MERGE_CPUS (default $CPUS)
# and $MERGE_MEMORY (default 4Gi), since a split's first two merges fit
# the balance models to the whole pilot. GOMAXPROCS is set from the pod's
# CPU limit, so nlsat runs as many workers as the pod has cores, and
# GOMEMLIMIT from its memory limit, so the Go runtime collects its heap
# harder as it nears the limit. A pod that fails is started again up to
# three times per index and resumes from its shard's checkpoint.
#
# A split's shards and its merge take three turns (pilots, residual pilots,
# candidates; see deploy/slurm-build.sh), so the script applies the shards'
# Job, waits for it, applies the merge Job, waits for it, three times; a
# build that needs fewer turns finds nothing to do in the later ones. Each
# turn deletes the Jobs of the turn before, and waits for their pods to
# go, first. If an index fails for good, the merge after it fails naming
# every shard it lacks, and the script stops: run the same command again,
# and every shard and the merge go on from where they stopped.
#
# --print writes the three manifests (claim, shards, merge) to stdout and
# applies nothing; deploy/kubernetes-job.yaml is the example's. kubectl is
# looked up on PATH, or given as $KUBECTL; $POLL is the seconds between
# looks at a Job's state (default 10).
set -euo pipefail
print=
if [ "${1:-}" = --print ]; then
	print=1
	shift
fi
if [ "$#" -lt 4 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: IMAGE=REF $0 [--print] N SHARDS OUT COMMAND [ARGS...] (N a positive number of shards)" >&2
	exit 2
fi
n=$1 shards=$2 out=$3
shift 3
image=${IMAGE:-}
if [ -z "$image" ]; then
	echo "$0: set IMAGE to an image with nlsat on its PATH (docker build -t REF . at the repository's root, then push it where the cluster pulls from)" >&2
	exit 2
fi
name=${NAME:-nlsat} claim=${CLAIM:-nlsat-data} mount=${MOUNT:-/data}
cpus=${CPUS:-2} memory=${MEMORY:-2Gi}
merge_cpus=${MERGE_CPUS:-$cpus} merge_memory=${MERGE_MEMORY:-4Gi}
kubectl=${KUBECTL:-kubectl}
case $shards in /*) ;; *) shards=$mount/$shards ;; esac
case $out in /*) ;; *) out=$mount/$out ;; esac

# quote writes its argument as a double-quoted YAML string.
quote() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}

claim_manifest() {
	cat <<EOF
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: $claim
spec:
  accessModes: [ReadWriteMany]
EOF
	if [ -n "${STORAGE_CLASS:-}" ]; then
		echo "  storageClassName: $(quote "$STORAGE_CLASS")"
	fi
	cat <<EOF
  resources:
    requests:
      storage: ${STORAGE:-20Gi}
EOF
}

# pod_spec writes the pod template of a Job whose container has $1 cores
# and $2 of memory and runs the shell line $3 with the arguments that
# follow.
pod_spec() {
	local cpus=$1 memory=$2 line=$3 args=()
	shift 3
	for a in "$@"; do
		args+=("$(quote "$a")")
	done
	local list
	list=$(printf '%s, ' "${args[@]}")
	cat <<EOF
  template:
    metadata:
      labels:
        app.kubernetes.io/name: nlsat
    spec:
      restartPolicy: Never
      containers:
        - name: nlsat
          image: $(quote "$image")
          command: ["sh", "-c", $(quote "$line"), "nlsat"]
          args: [${list%, }]
          env:
            - name: SHARDS
              value: $(quote "$shards")
            - name: OUT
              value: $(quote "$out")
            - name: GOMAXPROCS
              valueFrom:
                resourceFieldRef:
                  resource: limits.cpu
                  divisor: "1"
            - name: GOMEMLIMIT
              valueFrom:
                resourceFieldRef:
                  resource: limits.memory
                  divisor: "1"
          resources:
            requests: {cpu: $(quote "$cpus"), memory: $(quote "$memory")}
            limits: {cpu: $(quote "$cpus"), memory: $(quote "$memory")}
          volumeMounts:
            - name: data
              mountPath: $(quote "$mount")
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: $claim
EOF
}

shards_manifest() {
	cat <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: $name-shards
spec:
  completions: $n
  parallelism: $n
  completionMode: Indexed
  backoffLimitPerIndex: 3
EOF
	# The pod's shell expands these variables, not this script.
	# shellcheck disable=SC2016
	pod_spec "$cpus" "$memory" 'mkdir -p "$SHARDS" && exec nlsat "$@" --shard-index "$JOB_COMPLETION_INDEX" --shard-count '"$n"' --out "$SHARDS/shard-$JOB_COMPLETION_INDEX"' "$@"
}

merge_manifest() {
	cat <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: $name-merge
spec:
  backoffLimit: 0
EOF
	# shellcheck disable=SC2016
	pod_spec "$merge_cpus" "$merge_memory" 'exec nlsat merge --out "$OUT" "$SHARDS"/shard-*'
}

if [ -n "$print" ]; then
	claim_manifest
	echo ---
	shards_manifest "$@"
	echo ---
	merge_manifest
	exit 0
fi

# wait_job waits until the Job $1 has completed (status 0) or failed (1),
# saying how many of its pods have succeeded and failed whenever that
# changes (a Job whose pods cannot start, say for an image that cannot be
# pulled, shows no progress: kubectl describe job $1 tells why).
wait_job() {
	local state succeeded failed conditions last=
	while :; do
		state=$("$kubectl" get job "$1" -o 'jsonpath={.status.succeeded}/{.status.failed}/{.status.conditions[?(@.status=="True")].type}')
		IFS=/ read -r succeeded failed conditions <<<"$state"
		if [ "${succeeded:-0}/${failed:-0}" != "$last" ]; then
			last=${succeeded:-0}/${failed:-0}
			echo "job $1: pods succeeded ${succeeded:-0}, failed ${failed:-0}"
		fi
		case " $conditions " in
		*" Complete "*) return 0 ;;
		*" Failed "*) return 1 ;;
		esac
		sleep "${POLL:-10}"
	done
}

if ! "$kubectl" get pvc "$claim" >/dev/null 2>&1; then
	claim_manifest | "$kubectl" apply -f -
fi
for turn in 1 2 3; do
	"$kubectl" delete --ignore-not-found --cascade=foreground --wait "job/$name-shards" "job/$name-merge"
	shards_manifest "$@" | "$kubectl" apply -f -
	if ! wait_job "$name-shards"; then
		echo "turn $turn: some shards failed for good (kubectl logs -l job-name=$name-shards --prefix); the merge names them" >&2
	fi
	merge_manifest | "$kubectl" apply -f -
	ok=1
	wait_job "$name-merge" || ok=
	"$kubectl" logs "job/$name-merge" || true
	if [ -z "$ok" ]; then
		echo "turn $turn: the merge failed; run the same command again, and every shard and the merge go on from where they stopped" >&2
		exit 1
	fi
done
echo "done: $out on the claim $claim"
