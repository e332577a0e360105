#!/bin/bash
# slurm-selfplay.sh - kingme self-play games (the training data of kingme fit)
# across the nodes of a SLURM allocation.
#
#   sbatch tools/slurm-selfplay.sh              (edit the #SBATCH lines first)
#   KINGME=/path/to/kingme sbatch tools/slurm-selfplay.sh --games 20000 --out sp
#
# As tools/slurm-tune.sh: the batch script is the coordinator (`kingme
# selfplay ... --workers FILE`, no game played here), each task of the
# allocation runs one `kingme worker` through `srun`; the selfplay options
# given to this script are passed on. The chunk files are byte for byte those
# of one machine's run with the same options; a run stopped (scancel, the
# time limit) goes on where it was when submitted again.
#SBATCH --job-name=kingme-selfplay
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=1
#SBATCH --time=24:00:00
#SBATCH --output=kingme-selfplay-%j.log
set -euo pipefail
KINGME=${KINGME:-$HOME/kingme/kingme}
workers=$(mktemp "${TMPDIR:-/tmp}/kingme-workers.XXXXXX")
trap 'rm -f "$workers"' EXIT
# one line per task: a job step of one task on one CPU, inside this allocation
for _ in $(seq 1 "${SLURM_NTASKS:-1}"); do
    echo "srun --exclusive -N1 -n1 -c1 --quiet $KINGME worker" >>"$workers"
done
"$KINGME" selfplay --workers "$workers" "$@"
