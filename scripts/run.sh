#!/usr/bin/env bash
# Install what is missing and run the service: Redis (append-only file on), a Celery worker
# on the `cpu` queue (one process per core), one on the `gpu` queue (one process), Celery
# beat (the job sweep), and the web app on http://127.0.0.1:8000 (SQLite by default).
# Ctrl-C stops all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh

set -a; [ -f .env ] && . ./.env; set +a
export ANONYMIZER_VAR_DIR=${ANONYMIZER_VAR_DIR:-$PWD/var}
REDIS_PORT=${ANONYMIZER_REDIS_PORT:-6379}
export CELERY_BROKER_URL=${CELERY_BROKER_URL:-redis://127.0.0.1:$REDIS_PORT/0}
WEB_ADDR=${ANONYMIZER_WEB_ADDR:-127.0.0.1:8000}
CPU_WORKERS=${ANONYMIZER_CPU_WORKERS:-$(nproc)}
mkdir -p "$ANONYMIZER_VAR_DIR/redis"

# The embedded default keeps its own secret key under var/ (created once, never printed).
if [ -z "${DJANGO_SECRET_KEY:-}" ]; then
  key_file="$ANONYMIZER_VAR_DIR/secret_key"
  if [ ! -s "$key_file" ]; then
    (umask 077; .venv/bin/python -c "import secrets; print(secrets.token_urlsafe(50))" > "$key_file")
  fi
  DJANGO_SECRET_KEY=$(cat "$key_file")
  export DJANGO_SECRET_KEY
fi

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

# Append-only file: queued messages survive a Redis crash (the sweep re-rings any that do not).
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$ANONYMIZER_VAR_DIR/redis" \
  --appendonly yes --appendfsync everysec --save "" --daemonize no --loglevel warning &
pids+=($!)
for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

.venv/bin/celery -A worker.celery_app worker -Q cpu --concurrency "$CPU_WORKERS" \
  --pool prefork --loglevel INFO --hostname "cpu@%h" &
pids+=($!)
.venv/bin/celery -A worker.celery_app worker -Q gpu --concurrency 1 --pool prefork \
  --loglevel INFO --hostname "gpu@%h" &
pids+=($!)
.venv/bin/celery -A worker.celery_app beat --loglevel INFO \
  --schedule "$ANONYMIZER_VAR_DIR/celerybeat-schedule" &
pids+=($!)

.venv/bin/gunicorn webapp.wsgi:application -c webapp/gunicorn.conf.py --bind "$WEB_ADDR" \
  --workers 2 --threads 4 --access-logfile - &
pids+=($!)

echo "==> service running: http://$WEB_ADDR/  (Ctrl-C stops web, workers, beat and Redis)"
wait -n "${pids[@]}"
