#!/usr/bin/env bash
# Runs a sweep as a Slurm array job on a throw-away one-node Slurm (slurm-wlm + munge started here),
# merges the parts and requires them byte-identical to a one-process sweep. Exit 77: cannot run here.
# Usage: run_slurm_sweep.sh GPUSCHED STUDY.yaml [TASKS]
set -euo pipefail
readonly SKIP=77
gpusched=$(realpath "$1")
study=$(realpath "$2")
tasks=${3:-4}
skip() { echo "SKIPPED: $*"; exit $SKIP; }

[ "$(id -u)" = 0 ] || skip "needs root to start munged, slurmctld and slurmd"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || skip "slurm-wlm and munge are not installed and there is no apt-get"
    echo "installing slurm-wlm and munge"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } >/dev/null 2>&1 ||
        skip "apt-get could not install slurm-wlm and munge"
fi

work=$(mktemp -d /tmp/gpusched-slurm.XXXXXX)
chmod 700 "$work"
pids=()
cleanup() {
    local code=$?
    if [ -f "$work/slurm.conf" ]; then SLURM_CONF="$work/slurm.conf" scontrol shutdown >/dev/null 2>&1 || true; fi
    for f in "$work"/*.pid; do [ -f "$f" ] && pids+=("$(cat "$f")"); done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 50); do
        local alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.1
    done
    if [ "$code" != 0 ] && [ "$code" != $SKIP ]; then
        for log in "$work"/*.log; do echo "--- $log"; tail -n 20 "$log"; done
    fi
    rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT

# munge: its own key, socket and files, so a system munged (if any) is left alone.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged --force --socket="$work/munge.sock" --key-file="$work/munge.key" --pid-file="$work/munged.pid" \
       --log-file="$work/munged.log" --seed-file="$work/munged.seed" || skip "munged did not start"
pids+=("$(cat "$work/munged.pid")")

host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=gpusched-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -c -i || skip "slurmctld did not start"
slurmd || skip "slurmd did not start"
for _ in $(seq 20); do [ -f "$work/slurmctld.pid" ] && [ -f "$work/slurmd.pid" ] && break; sleep 0.2; done
for f in slurmctld slurmd; do [ -f "$work/$f.pid" ] && pids+=("$(cat "$work/$f.pid")"); done

for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -qE '^idle' && break
    sleep 0.5
done
sinfo -h -o %T | grep -qE '^idle' || { echo "the node did not come up"; exit 1; }

# The user-facing batch file (docs/sweep.md), with this test's paths.
cat > "$work/sweep.sbatch" <<BATCH
#!/bin/bash
#SBATCH --job-name=gpusched-sweep
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/task-%a.log
"$gpusched" sweep "$study" -j "\${SLURM_CPUS_PER_TASK:-1}" --quiet --out "$work/part-\${SLURM_ARRAY_TASK_ID}.csv"
BATCH
job=$(sbatch --parsable --array=0-$((tasks - 1)) "$work/sweep.sbatch")
echo "submitted array job $job ($tasks tasks)"

for _ in $(seq 240); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.5
done
[ -z "$(squeue -h -j "$job")" ] || { echo "array job $job did not finish in 2 minutes"; exit 1; }

parts=()
for i in $(seq 0 $((tasks - 1))); do
    [ -s "$work/part-$i.csv" ] || { echo "task $i wrote no results"; cat "$work/task-$i.log" || true; exit 1; }
    parts+=("$work/part-$i.csv")
done
"$gpusched" merge "${parts[@]}" --out "$work/merged.csv"
"$gpusched" sweep "$study" -j 2 --quiet --out "$work/whole.csv"
cmp "$work/merged.csv" "$work/whole.csv"
echo "OK: $tasks Slurm array tasks merged = one-process sweep ($(($(wc -l < "$work/whole.csv") - 3)) points)"
