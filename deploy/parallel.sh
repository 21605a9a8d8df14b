#!/bin/bash
# The paper preset of fragment A as 8 shards on one workstation with GNU
# parallel (one job per core), then the merge.
set -euo pipefail
parallel -j "$(nproc)" nlsat split --fragment A --preset paper --seed 1 -j 1 -q \
	--shard-index {} --shard-count 8 --out nlsat-A-shards/shard-{} ::: 0 1 2 3 4 5 6 7
nlsat merge --out nlsat-A nlsat-A-shards/shard-*
