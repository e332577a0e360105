#!/bin/bash
# slurm-cluster.sh - a one-node SLURM cluster on this machine, to try kingme's
# batch scripts (tools/slurm-tune.sh, tools/slurm-selfplay.sh) for real.
#
#   tools/slurm-cluster.sh start [DIR]   configure and start munged, slurmctld, slurmd
#   tools/slurm-cluster.sh stop [DIR]    stop the daemons this script started
#   tools/slurm-cluster.sh status [DIR]  sinfo, or a non-zero status when it is down
#
# Needs Debian's slurm-wlm and munge (apt-get install -y slurm-wlm munge) and
# root (the daemons run as root; munged as the munge user). Everything goes
# under DIR (default /tmp/kingme-slurm): slurm.conf, the state, the logs;
# /etc/slurm is not touched. Use the cluster with SLURM_CONF=DIR/slurm.conf
# (start prints the line). The node is this host with its CPUs (at most 2
# by default: SLURM_CPUS=N for another count).
set -euo pipefail
cmd=${1:-}
DIR=${2:-/tmp/kingme-slurm}
CONF=$DIR/slurm.conf
HOST=$(hostname -s)
CPUS=${SLURM_CPUS:-$(($(nproc) < 2 ? $(nproc) : 2))}

die() {
    echo "slurm-cluster: $*" >&2
    exit 1
}

# the node answers; no controller process, no question (sinfo would retry
# for its 5 s against a controller that is not there)
up() {
    [ -s "$DIR/slurmctld.pid" ] && kill -0 "$(cat "$DIR/slurmctld.pid")" 2>/dev/null &&
        SLURM_CONF=$CONF timeout 5 sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'
}

case "$cmd" in
start)
    for t in munged slurmctld slurmd sinfo sbatch; do
        command -v "$t" >/dev/null || die "$t is not installed (apt-get install -y slurm-wlm munge)"
    done
    mkdir -p "$DIR/state" "$DIR/spool"
    cat >"$CONF" <<CONF
# a one-node cluster (tools/slurm-cluster.sh)
ClusterName=kingme
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldPort=${SLURM_PORT:-6817}
SlurmdPort=$((${SLURM_PORT:-6817} + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=kingme Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
    # munge: the key the package made, the daemon as its user
    if ! pgrep -x munged >/dev/null; then
        mkdir -p /run/munge && chown munge:munge /run/munge
        [ -s /etc/munge/munge.key ] || die "/etc/munge/munge.key is missing (the munge package makes it)"
        runuser -u munge -- munged || die "munged did not start"
        echo started >"$DIR/munged.started"
    fi
    if ! up; then
        SLURM_CONF=$CONF slurmctld -f "$CONF" || die "slurmctld did not start (see $DIR/slurmctld.log)"
        SLURM_CONF=$CONF slurmd -f "$CONF" || die "slurmd did not start (see $DIR/slurmd.log)"
        for _ in $(seq 1 30); do
            up && break
            sleep 1
        done
        up || die "the node did not come up in 30 s (see $DIR/slurmctld.log and $DIR/slurmd.log)"
    fi
    echo "slurm-cluster: node $HOST with $CPUS CPUs is up; use it with: export SLURM_CONF=$CONF"
    ;;
stop)
    for d in slurmd slurmctld; do
        if [ -s "$DIR/$d.pid" ]; then kill "$(cat "$DIR/$d.pid")" 2>/dev/null || true; fi
    done
    if [ -e "$DIR/munged.started" ]; then
        if [ -s /run/munge/munged.pid ]; then kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true; fi
        rm -f "$DIR/munged.started"
    fi
    ;;
status)
    up || die "no cluster answers at $CONF"
    SLURM_CONF=$CONF sinfo
    ;;
*)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
