#!/usr/bin/env bash
# Install everything and run the service: Redis, a Celery worker on the `gpu` queue, and
# the web app on http://127.0.0.1:8000 (SQLite by default). Ctrl-C stops all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh

set -a; [ -f .env ] && . ./.env; set +a
export ANONYMIZER_VAR_DIR=${ANONYMIZER_VAR_DIR:-$PWD/var}
REDIS_PORT=${ANONYMIZER_REDIS_PORT:-6379}
export CELERY_BROKER_URL=${CELERY_BROKER_URL:-redis://127.0.0.1:$REDIS_PORT/0}
WEB_ADDR=${ANONYMIZER_WEB_ADDR:-127.0.0.1:8000}
mkdir -p "$ANONYMIZER_VAR_DIR/redis"

.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0
.venv/bin/python manage.py ensure_admin

pids=()
cleanup() {
  trap - INT TERM EXIT
  echo; echo "==> stopping ${pids[*]}"
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$ANONYMIZER_VAR_DIR/redis" \
  --save 60 1 --appendonly no --daemonize no --loglevel warning &
pids+=($!)
for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

.venv/bin/celery -A worker.celery_app worker -Q gpu --concurrency 1 --pool prefork \
  --loglevel INFO --hostname "gpu@%h" &
pids+=($!)

.venv/bin/gunicorn webapp.wsgi:application -c webapp/gunicorn.conf.py --bind "$WEB_ADDR" \
  --workers 2 --threads 4 \
  --access-logfile - &
pids+=($!)

echo "==> service running: http://$WEB_ADDR/  (Ctrl-C stops web, worker and Redis)"
wait -n "${pids[@]}"
