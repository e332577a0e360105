#!/bin/bash
# slurm-tune.sh - a kingme tuning session across the nodes of a SLURM allocation.
#
#   sbatch tools/slurm-tune.sh                  (edit the #SBATCH lines first)
#   KINGME=/path/to/kingme sbatch tools/slurm-tune.sh --depth 6 --seconds 86400
#
# The batch script itself runs on the first node and is the coordinator
# (`kingme tune ... --workers FILE`): it plays no game (no -j) and costs
# about 0.1 ms of one core a game. Each task of the allocation runs one
# `kingme worker` through `srun`, started and restarted by the coordinator;
# the tune options given to this script are passed on. The results are the
# same as one machine's with the same --seed: only the speed changes.
#SBATCH --job-name=kingme-tune
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=1
#SBATCH --time=24:00:00
#SBATCH --output=kingme-tune-%j.log
set -euo pipefail
KINGME=${KINGME:-$HOME/kingme/kingme}
DIR=${KINGME_DIR:-$HOME/kingme/weights}
workers=$(mktemp "${TMPDIR:-/tmp}/kingme-workers.XXXXXX")
trap 'rm -f "$workers"' EXIT
# one line per task: a job step of one task on one CPU, inside this allocation
for _ in $(seq 1 "${SLURM_NTASKS:-1}"); do
    echo "srun --exclusive -N1 -n1 -c1 --quiet $KINGME worker" >>"$workers"
done
exec "$KINGME" tune --dir "$DIR" --name "slurm-${SLURM_JOB_ID:-local}" --workers "$workers" "$@"
