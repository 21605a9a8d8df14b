#!/bin/bash
# Runs an nlsat build on a real one-node Slurm cluster and checks it
# against a one-process build. It starts munged, slurmctld and slurmd on
# this machine (state, logs and sockets under a temporary directory, ports
# 16817/16818 on loopback), submits a 4-shard split through
# deploy/slurm-build.sh (three rounds of shards and merge), kills one task
# of the first round mid-run with SIGKILL and requeues it, waits for the
# last merge, compares the merged dataset with a
# one-process build byte for byte, and stops every daemon it started by
# PID. Where Slurm or munge is not installed, or the daemons do not come
# up, it says so and exits 0 (skipped). Usage: scripts/slurm-test.sh
# [path/to/nlsat] (default bin/nlsat).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
nlsat=$(realpath "${1:-bin/nlsat}")
skip() { echo "slurm-test: skipped: $*"; exit 0; }
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install slurm-wlm munge)"
done
[ -x "$nlsat" ] || { echo "slurm-test: $nlsat is not an executable (make build)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/nlsat-slurm.XXXXXX)
stop() {
	for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munged.pid"; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
	done
	sleep 1
	for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munged.pid"; do
		[ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap stop EXIT
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/work"
host=$(hostname -s)

mungekey --create --keyfile "$tmp/munge.key" --force >/dev/null 2>&1 || skip "mungekey failed"
chmod 600 "$tmp/munge.key"
munged --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
	--log-file="$tmp/log/munged.log" --seed-file="$tmp/munge.seed" --force >/dev/null 2>&1 || skip "munged did not start"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=nlsattest
SlurmctldHost=$host
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobRequeue=1
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" >/dev/null 2>&1 || skip "slurmctld did not start"
slurmd -f "$SLURM_CONF" >/dev/null 2>&1 || skip "slurmd did not start"
for _ in $(seq 40); do
	sinfo -h -o %T 2>/dev/null | grep -q idle && break
	sleep 0.5
done
sinfo -h -o %T 2>/dev/null | grep -q idle || skip "the node did not come up: $(tail -3 "$tmp/log/slurmctld.log" "$tmp/log/slurmd.log" 2>/dev/null)"
echo "slurm-test: one-node cluster up ($(sinfo -h -o '%P %D %T'))"

build=(split --fragment V --train 1500 --validation 300 --test 300 --seed 5 -q)
"$nlsat" "${build[@]}" -j 2 --out "$tmp/work/one"

cd "$tmp/work"
out=$(NLSAT=$nlsat SBATCH_ARGS="--chdir=$tmp/work --cpus-per-task=1" \
	"$repo/deploy/slurm-build.sh" 4 shards merged "${build[@]}" --checkpoint-every 100ms)
echo "slurm-test: $out"
read -r -a arrays <<<"$(sed -n 's/^array \([0-9 ]*\) (.*/\1/p' <<<"$out")"
read -r -a merges <<<"$(sed -n 's/.* merge \([0-9 ]*\) into .*/\1/p' <<<"$out")"
[ "${#arrays[@]}" = 3 ] && [ "${#merges[@]}" = 3 ] || { echo "slurm-test: expected three arrays and three merges" >&2; exit 1; }
array=${arrays[0]}
jobs=$(IFS=,; echo "${arrays[*]},${merges[*]}")

# Kill task 1 once it has written a checkpoint, then requeue it.
for _ in $(seq 600); do
	[ -n "$(ls -A shards/shard-1 2>/dev/null)" ] && [ "$(squeue -h -j "${array}_1" -o %T 2>/dev/null)" = RUNNING ] && break
	sleep 0.1
done
[ "$(squeue -h -j "${array}_1" -o %T 2>/dev/null)" = RUNNING ] || { echo "slurm-test: task 1 never ran" >&2; exit 1; }
scancel --full --signal=KILL "${array}_1"
for _ in $(seq 100); do
	[ -z "$(squeue -h -j "${array}_1" -o %T 2>/dev/null | grep -v COMPLETING)" ] && break
	sleep 0.1
done
scontrol requeue "${array}_1"
echo "slurm-test: task ${array}_1 killed mid-run and requeued"

for _ in $(seq 1200); do
	[ -z "$(squeue -h -j "$jobs" 2>/dev/null)" ] && break
	sleep 0.5
done
[ -z "$(squeue -h -j "$jobs" 2>/dev/null)" ] || { echo "slurm-test: jobs still queued after 10 minutes:" >&2; squeue >&2; exit 1; }
if ! diff -r one merged >/dev/null; then
	echo "slurm-test: the merged build differs from the one-process build:" >&2
	diff -rq one merged >&2 || true
	tail -n 20 nlsat-*.log >&2 || true
	exit 1
fi
grep -q "killed\|KILL\|CANCELLED\|requeue" nlsat-shard-"${array}"_1.log 2>/dev/null || true
echo "slurm-test: 4 shards in three rounds, one task killed and requeued, merged into the bytes of one process ($(find merged -type f | wc -l) files)"
