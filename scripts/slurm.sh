#!/usr/bin/env bash
# A SLURM batch script for a pegsol sweep shared by the ranks of an MPI job (issue 20).
#
#   cargo build --release --features mpi     # once, on a machine like the compute nodes
#   sbatch scripts/slurm.sh                  # the table below; or, for another command:
#   sbatch scripts/slurm.sh count --board tri:9 --hole a1 --csv results/tri9
#
# One rank per node, each with every core of its node (its rayon threads): a rank expands its
# own shards of each layer and sends the children to the ranks owning theirs, so a node's
# memory holds 1/N of each layer. A layer has 64 shards, so 64 ranks at most.
#
# --- SLURM options (each line "#SBATCH" is read by sbatch, not by bash) ---
# The job's name in squeue.
#SBATCH --job-name=pegsol
# Nodes, and one MPI rank on each (pegsol's threads use the node's cores).
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
# Every core of the node for the rank's threads (pegsol --threads 0 takes them all).
#SBATCH --cpus-per-task=64
# The whole memory of each node; pegsol's --max-memory defaults to 80% of what is free,
# within the job's cgroup limit (with --mem=64G, 80% of what is left of those 64G).
#SBATCH --mem=0
# Wall time limit. A job stopped by it resumes from its checkpoints when submitted again
# (the same command, the same number of nodes), losing at most the layer in progress.
#SBATCH --time=24:00:00
# Ask SLURM to send SIGTERM 5 minutes before the limit: pegsol stops at the next batch.
#SBATCH --signal=TERM@300
# Output and errors, %j being the job id.
#SBATCH --output=pegsol-%j.out
#SBATCH --error=pegsol-%j.err
set -euo pipefail

# Where the binary is (built with --features mpi) and where each rank keeps its layers:
# a node-local disk is fastest; {rank} is replaced by each rank's number. The work
# directories must survive the job for a resubmission to resume (not a per-job tmpdir).
PEGSOL=${PEGSOL:-$SLURM_SUBMIT_DIR/target/release/pegsol}
WORK=${PEGSOL_WORK:-/scratch/$USER/pegsol-work/{rank}}

if [ $# -eq 0 ]; then
  set -- table --board tri:8 --starts all --csv "$SLURM_SUBMIT_DIR/results/tri8-table"
fi

# srun starts one pegsol per task with the MPI environment (PMIx); with OpenMPI's mpirun
# instead: mpirun --map-by ppr:1:node --bind-to none "$PEGSOL" ...
# --work-dir keeps every layer on disk with a checkpoint after each (resumable); drop it to
# keep layers in memory while they fit.
srun --mpi=pmix --cpu-bind=none "$PEGSOL" "$@" --threads "$SLURM_CPUS_PER_TASK" \
  --work-dir "$WORK"
