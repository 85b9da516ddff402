#!/usr/bin/env bash
# Issue 11's measurements in one go, one after the other (run it on a quiet machine):
# boardgame.io beside this server as the browser speaks to it (bench/compare_peer.sh,
# compact legal moves) at K=30 and K=1 on SQLite, at K=30 on PostgreSQL (one process,
# then WORKERS=2 with Redis); the shared yardstick as it is (its own compare.sh, the
# plain list) on SQLite and PostgreSQL; then this project's own bench scripts. Raw
# output goes to bench/results/<UTC date-time>/, one file a run. The peer and the
# yardstick are not part of this repository: PEER names the peer's directory (for
# bench/compare_peer.sh) and COMPARE the yardstick's compare.sh.
#   PEER=… COMPARE=… bash bench/side_by_side.sh
# PG (a PostgreSQL server URL without database, default the local one) and REDIS_URL
# may be set; a scratch database bench_s1 is made (and replaced) on it.
set -uo pipefail
cd "$(dirname "$0")/.."
COMPARE=${COMPARE:-}
[ -n "${PEER:-}" ] && [ -f "$COMPARE" ] || { echo "set PEER (the boardgame.io peer's directory) and COMPARE (the yardstick's compare.sh)"; exit 2; }
OUT=bench/results/$(date -u +%Y-%m-%dT%H%M)
mkdir -p "$OUT"
PG=${PG:-postgresql+asyncpg://postgres@127.0.0.1:5432}
REDIS=${REDIS_URL:-redis://127.0.0.1:6379/5}
note() { echo "== $* ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/run.log"; }
fresh() {
  local host=${PG#*://}
  psql -q "postgresql://${host}/postgres" -c "DROP DATABASE IF EXISTS bench_s1" -c "CREATE DATABASE bench_s1" >/dev/null
}
# the browser's protocol (compact legal moves), measured by bench/bench_load.py
OURS=bench/compare_peer.sh
note "ours K=30 sqlite"; bash $OURS > "$OUT/ours_k30_sqlite.txt" 2>&1; grep ratio "$OUT/ours_k30_sqlite.txt" | tee -a "$OUT/run.log"
note "ours K=1 sqlite"; CONCURRENCY=1 MATCHES=10 bash $OURS > "$OUT/ours_k1_sqlite.txt" 2>&1; grep ratio "$OUT/ours_k1_sqlite.txt" | tee -a "$OUT/run.log"
fresh
note "ours K=30 postgresql, one process"; DATABASE_URL=$PG/bench_s1 bash $OURS > "$OUT/ours_k30_pg.txt" 2>&1; grep ratio "$OUT/ours_k30_pg.txt" | tee -a "$OUT/run.log"
fresh
note "ours K=30 postgresql+redis, WORKERS=2"; WORKERS=2 REDIS_URL=$REDIS DATABASE_URL=$PG/bench_s1 bash $OURS > "$OUT/ours_k30_pg_w2.txt" 2>&1; grep ratio "$OUT/ours_k30_pg_w2.txt" | tee -a "$OUT/run.log"
# the shared yardstick as it is (the plain list of legal moves, its own client)
note "shared K=30 sqlite"; bash $COMPARE > "$OUT/k30_sqlite.txt" 2>&1; grep ratio "$OUT/k30_sqlite.txt" | tee -a "$OUT/run.log"
note "shared K=1 sqlite"; CONCURRENCY=1 MATCHES=10 bash $COMPARE > "$OUT/k1_sqlite.txt" 2>&1; grep ratio "$OUT/k1_sqlite.txt" | tee -a "$OUT/run.log"
fresh
note "shared K=30 postgresql, one process"; DATABASE_URL=$PG/bench_s1 bash $COMPARE > "$OUT/k30_pg.txt" 2>&1; grep ratio "$OUT/k30_pg.txt" | tee -a "$OUT/run.log"
note "memory"; M_ROOMS=0 .venv/bin/python bench/bench_memory.py > "$OUT/memory.json" 2>/dev/null
note "restore"; TEST_DATABASE_URL=$PG/bench_s1 .venv/bin/python bench/bench_restore.py > "$OUT/restore.json" 2>/dev/null
note "crossproc"; DATABASE_URL=$PG/bench_s1 REDIS_URL=$REDIS .venv/bin/python bench/bench_crossproc.py > "$OUT/crossproc.json" 2>/dev/null
note "replay"; .venv/bin/python bench/bench_replay.py > "$OUT/replay.json" 2>/dev/null
note "server"; .venv/bin/python bench/bench_server.py > "$OUT/server.json" 2>/dev/null
note "commits"; DATABASE_URL=$PG/bench_s1 .venv/bin/python bench/bench_commits.py > "$OUT/commits.json" 2>/dev/null
note "done"
echo "$OUT"
