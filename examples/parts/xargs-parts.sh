#!/bin/sh
# The same job as k8s-indexed-job.yaml on one host: N parts, P at a time, with xargs -P.
# Usage: xargs-parts.sh SRC DST [N] [P] [OPTIONS...]    (OPTIONS go to every step; ZARR: the zarr command, default "zarr";
#        COMMAND: the partitioned subcommand, default "cp"; also "convert", "geozarr pyramid")
set -eu
SRC=$1
DST=$2
N=${3:-8}
P=${4:-4}
ZARR=${ZARR:-zarr}
COMMAND=${COMMAND:-cp}
if [ $# -gt 4 ]; then shift 4; else set --; fi
# Metadata first (idempotent), so readers see the arrays while the parts fill them.
$ZARR $COMMAND "$SRC" "$DST" "$@" --init
# Each part is "$COMMAND SRC DST --parts N" with its index in JOB_COMPLETION_INDEX, as in Kubernetes.
# --resume: a part that is run again skips the chunks it already wrote.
seq 0 $((N - 1)) | xargs -P "$P" -I{} env JOB_COMPLETION_INDEX={} $ZARR $COMMAND "$SRC" "$DST" "$@" --parts "$N" --resume
# Checks every part's marker under DST/.zarr-jobs/, writes the metadata again (unchanged), removes the markers.
$ZARR $COMMAND "$SRC" "$DST" "$@" --parts "$N" --finalize
