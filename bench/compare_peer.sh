#!/usr/bin/env bash
# boardgame.io and this server side by side, as the yardstick's compare.sh runs them
# (the peer's own run.sh, then ours, A/B/A/B with the same MATCHES/MOVES/CONCURRENCY),
# but ours measured by bench/bench_load.py: the same rooms, moves and round trip, with the
# hello asking for the compact legal moves as the browser does (LEGAL_FORM=list: as the
# shared script asks). PEER names the boardgame.io peer's directory (its run.sh), which
# is not part of this repository. Run from the project's root on a quiet machine:
#   PEER=… bash bench/compare_peer.sh                       # K=30
#   PEER=… CONCURRENCY=1 MATCHES=10 bash bench/compare_peer.sh
# DATABASE_URL, REDIS_URL and WORKERS reach our server. Prints each system's JSON line,
# then a ratio line per round (ours / boardgame.io): throughput above 1 is better for us;
# p50, p99 and server_cpu_per_move below 1 are.
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${PEER:-}
export MATCHES=${MATCHES:-60} MOVES=${MOVES:-30} CONCURRENCY=${CONCURRENCY:-30}
[ -x .venv/bin/python ] || { echo "make the venv first (make test or make run)"; exit 2; }
[ -n "$PEER" ] || { echo "set PEER to the boardgame.io peer's directory (the one holding run.sh)"; exit 2; }
[ -f "$PEER/run.sh" ] || { echo "no peer at $PEER (set PEER=...)"; exit 2; }
for round in 1 2; do
  peer=$(bash "$PEER/run.sh" 2>/dev/null | tail -1); echo "$peer"
  ours=$(.venv/bin/python bench/bench_load.py 2>/dev/null | tail -1); echo "$ours"
  .venv/bin/python - "$peer" "$ours" "$round" <<'PY'
import json, sys
peer, ours = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(json.dumps({
    "ratio": "ours/bgio", "round": int(sys.argv[3]), "K": ours["concurrency"],
    "legal_form": ours["legal_form"], "db": ours["db"], "workers": ours["workers"],
    "throughput": round(ours["moves_per_s"] / peer["moves_per_s"], 3),
    "p50": round(ours["rtt_ms"]["p50"] / peer["rtt_ms"]["p50"], 2),
    "p99": round(ours["rtt_ms"]["p99"] / peer["rtt_ms"]["p99"], 2),
    "server_cpu_per_move": round(
        ours["server_cpu_ms_per_move"] / peer["server_cpu_ms_per_move"], 1),
    "load": open("/proc/loadavg").read().split()[:3],
}))
PY
done
