#!/usr/bin/env bash
# `make run`: the operator station. Without a display the station says so once and exits
# with status 3; then what the front camera sees is rendered headless (the simulator and the
# renderer work), its path printed, and `make run` succeeds. Any other failure is the
# station's own, with its status.
set -u
bin="${1:?usage: scripts/make-run.sh PATH-TO-TREADSIM}"
"$bin" station
status=$?
if [ "$status" -eq 3 ]; then
  exec "$bin" shot --camera front --out target/make-run-front.png
fi
exit "$status"
