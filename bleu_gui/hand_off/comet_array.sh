#!/bin/bash
#SBATCH --job-name=bleu-gui-comet
#SBATCH --array=1-@SHARDS@
#SBATCH --gpus=1
# Made by bleu-score: each task scores one shard with unbabel-comet's own comet-score; run it elsewhere with
# sbatch, or one task by hand: SLURM_ARRAY_TASK_ID=1 bash run_array.sh (COMET_GPUS=0: on the CPU).
set -euo pipefail
cd "$(dirname "$0")"
SHARD=$(printf "shard-%05d" "$SLURM_ARRAY_TASK_ID")
# MODEL: the checkpoint (here, its path on this machine; elsewhere, its path there or the hub name): the import
# checks its sha256 against the manifest's.
MODEL=@MODEL@
python -c @VERSIONS@ "$MODEL" > "$SHARD/versions.json"
comet-score -s "$SHARD/src.txt" -t "$SHARD/mt.txt"@REF@ --model "$MODEL" --batch_size @BATCH@ --gpus "${COMET_GPUS:-1}" --quiet --only_system --disable_cache --to_json "$SHARD/out.json"
