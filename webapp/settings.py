"""Django settings, read only from environment variables (each listed in .env.example).

Small typed helpers fail loudly on bad values instead of silently using a default.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean, got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None


def env_float(name: str, default: float) -> float:
    """A float; "inf" is accepted (e.g. no budget cap)."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from None


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


VAR_DIR = Path(env_str("ANONYMIZER_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)
(VAR_DIR / "staticfiles").mkdir(exist_ok=True)
DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set (scripts/run.sh generates one under var/); "
            "only DJANGO_DEBUG=1 runs without one"
        )
    SECRET_KEY = "django-insecure-debug-only-key"  # check --deploy flags this prefix
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "http://127.0.0.1:8000")

# Served over HTTPS (directly or behind a TLS proxy): secure cookies, HSTS, redirect to https.
HTTPS = env_bool("DJANGO_HTTPS", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    # only behind a proxy that sets this header itself; otherwise clients could forge it
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Asking browsers to preload HSTS is a commitment an operator makes on purpose, not a default.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "webapp.jobs",
    "webapp.ledger",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "webapp.security.PrivatePagesNotCachedMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username
# from one address, that pair is locked out for the cool-off period. Django has no throttle
# of its own, and axes is the maintained package for it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("ANONYMIZER_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_float("ANONYMIZER_LOGIN_COOLOFF_HOURS", 0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# Content Security Policy (django-csp): no inline script or style anywhere, htmx included
# (templates/base.html turns off its injected indicator style; static/js/app.js replaces the
# few inline handlers).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

ROOT_URLCONF = "webapp.urls"
WSGI_APPLICATION = "webapp.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

_SQLITE_OPTIONS = {
    "timeout": 30,
    # IMMEDIATE takes the write lock at BEGIN, so concurrent writers queue instead of failing.
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
# Connections are kept for DJANGO_CONN_MAX_AGE seconds (checked before reuse) instead of one
# per request: a new PostgreSQL connection costs a server process and an authentication.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DJANGO_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = dict(_SQLITE_OPTIONS)
    # A file, not :memory:, so a real worker process can share the test database.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get(
            "TEST_DATABASE_NAME", str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")
        )
    }

# Both per process. "summaries" keeps each user's settled ledger totals for the budget box;
# every read checks them against the database (webapp.ledger.services), so a process never
# needs to hear about another's writes.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "summaries": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "summaries",
        "TIMEOUT": 3600,
        "OPTIONS": {"MAX_ENTRIES": 1000},
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
SESSION_COOKIE_AGE = env_int("ANONYMIZER_SESSION_AGE_SECONDS", 14 * 24 * 3600)
LOGIN_REDIRECT_URL = "submit"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = VAR_DIR / "media"
WHITENOISE_USE_FINDERS = True  # serve static/ without collectstatic (local runs, live tests)

# Uploads and documents
MAX_DOCUMENT_BYTES = env_int("ANONYMIZER_MAX_DOCUMENT_BYTES", 2_000_000)
MAX_PDF_PAGES = env_int("ANONYMIZER_MAX_PDF_PAGES", 50)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_DOCUMENT_BYTES + 1_000_000
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_DOCUMENT_BYTES + 1_000_000
FILE_UPLOAD_HANDLERS = [
    "webapp.jobs.uploads.SizeLimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
DATA_UPLOAD_MAX_NUMBER_FILES = 5
# .docx and .pdf are parsed in a child process with these limits, never in a web thread.
MAX_DOCX_UNCOMPRESSED_BYTES = env_int("ANONYMIZER_MAX_DOCX_UNCOMPRESSED_BYTES", 40_000_000)
MAX_DOCX_MEMBERS = env_int("ANONYMIZER_MAX_DOCX_MEMBERS", 1000)
MAX_ZIP_RATIO = env_int("ANONYMIZER_MAX_ZIP_RATIO", 100)  # uncompressed : compressed, per member
PARSE_TIMEOUT_SECONDS = env_float("ANONYMIZER_PARSE_TIMEOUT_SECONDS", 20.0)
PARSE_MEMORY_BYTES = env_int("ANONYMIZER_PARSE_MEMORY_MB", 768) * 1024 * 1024
# Texts up to this many characters are planned (detection + accounting) in the request for an
# exact preview and reservation; longer ones are reserved at their worst case over K and
# planned exactly by the worker, so no request runs detection on a long text.
INLINE_PLAN_MAX_CHARS = env_int("ANONYMIZER_INLINE_PLAN_MAX_CHARS", 20_000)
# The job page shows this many spans per page, and the output up to this many characters
# (the download has all of it).
JOB_PAGE_SPANS = env_int("ANONYMIZER_JOB_PAGE_SPANS", 300)
JOB_PAGE_OUTPUT_CHARS = env_int("ANONYMIZER_JOB_PAGE_OUTPUT_CHARS", 200_000)
DOCUMENT_RETENTION_DAYS = env_int("ANONYMIZER_DOCUMENT_RETENTION_DAYS", 30)
# Fernet keys for restore mappings and salts (comma-separated, newest first; see
# webapp/jobs/mappings.py for what happens when none is set).
MAPPING_KEYS = env_list("ANONYMIZER_MAPPING_KEY", "")

# Privacy budget: the cap (ε_B, δ_B) a new user gets; admins change it per user or the default.
DEFAULT_BUDGET_EPSILON = env_float("ANONYMIZER_DEFAULT_BUDGET_EPSILON", 64.0)  # inf: no cap
DEFAULT_BUDGET_DELTA = env_float("ANONYMIZER_DEFAULT_BUDGET_DELTA", 1e-3)
if not DEFAULT_BUDGET_EPSILON > 0:
    raise ImproperlyConfigured("ANONYMIZER_DEFAULT_BUDGET_EPSILON must be > 0 (or inf)")
if not 0 <= DEFAULT_BUDGET_DELTA < 1:
    raise ImproperlyConfigured("ANONYMIZER_DEFAULT_BUDGET_DELTA must lie in [0, 1)")
# New users' policy: refuse releases without a formal guarantee (redaction, ε = ∞, seeded).
DEFAULT_REQUIRE_FORMAL_GUARANTEE = env_bool("ANONYMIZER_DEFAULT_REQUIRE_GUARANTEE", False)
# Who may seed a run from the web form (a seeded run is reproducible, never private).
SEEDED_RUNS = env_str("ANONYMIZER_SEEDED_RUNS", "staff")
if SEEDED_RUNS not in ("staff", "all", "nobody"):
    raise ImproperlyConfigured("ANONYMIZER_SEEDED_RUNS must be staff, all or nobody")

# Celery (read by worker/celery_app.py with namespace="CELERY")
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TASK_DEFAULT_QUEUE = "cpu"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("ANONYMIZER_TASK_SOFT_TIME_LIMIT", 1800)
CELERY_TASK_TIME_LIMIT = env_int("ANONYMIZER_TASK_TIME_LIMIT", 1900)
# Longer than the hard time limit, so Redis never re-delivers a job that is still running.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 600,
    "socket_connect_timeout": 2,
    "socket_timeout": 10,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# A web request that rings the doorbell while the broker is down gives up within about a
# second; the job is saved and the sweep rings it again later.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# How long a new pool child may take to report ready; nothing slow runs at its start-up.
CELERY_WORKER_PROC_ALIVE_TIMEOUT = env_float("ANONYMIZER_WORKER_PROC_ALIVE_TIMEOUT", 10.0)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Warm the default detector in a background thread of each pool child (never blocking its
# start-up); off: load it on the first job.
WORKER_WARM_DETECTOR = env_bool("ANONYMIZER_WORKER_WARM_DETECTOR", True)

# Job recovery: the database is the source of truth, the broker only a doorbell.
SWEEP_INTERVAL_SECONDS = env_float("ANONYMIZER_SWEEP_INTERVAL_SECONDS", 5.0)
# A queued job not claimed this long is rung again if the broker holds fewer messages than
# there are such jobs in its queue.
RING_AGAIN_AFTER_SECONDS = env_float("ANONYMIZER_RING_AGAIN_AFTER_SECONDS", 10.0)
# A running job's worker touches its heartbeat this often (a thread, independent of progress).
HEARTBEAT_INTERVAL_SECONDS = env_float("ANONYMIZER_HEARTBEAT_INTERVAL_SECONDS", 5.0)
# A running job without a heartbeat this long lost its worker: it is queued again.
JOB_HEARTBEAT_STALE_SECONDS = env_float("ANONYMIZER_JOB_STALE_SECONDS", 30.0)
# A job is claimed at most this many times; after that a lost worker fails it with a reason.
JOB_MAX_ATTEMPTS = env_int("ANONYMIZER_JOB_MAX_ATTEMPTS", 3)
PURGE_INTERVAL_SECONDS = env_float("ANONYMIZER_PURGE_INTERVAL_SECONDS", 3600.0)
if not 0 < HEARTBEAT_INTERVAL_SECONDS < JOB_HEARTBEAT_STALE_SECONDS:
    raise ImproperlyConfigured(
        "ANONYMIZER_HEARTBEAT_INTERVAL_SECONDS must be > 0 and below ANONYMIZER_JOB_STALE_SECONDS"
    )
if SWEEP_INTERVAL_SECONDS <= 0 or JOB_MAX_ATTEMPTS < 1:
    raise ImproperlyConfigured("the sweep interval must be > 0 and the attempt limit >= 1")
CELERY_BEAT_SCHEDULE = {
    "sweep-jobs": {
        "task": "worker.tasks.sweep",
        "schedule": SWEEP_INTERVAL_SECONDS,
        # a sweep that waited longer than two periods is superseded by the next one
        "options": {"queue": "cpu", "expires": 2 * SWEEP_INTERVAL_SECONDS},
    },
    "purge-expired-documents": {
        "task": "worker.tasks.purge_expired",
        "schedule": PURGE_INTERVAL_SECONDS,
        "options": {"queue": "cpu", "expires": PURGE_INTERVAL_SECONDS},
    },
}
# Queued jobs with identical settings that one task claims and runs as one batch.
WORKER_BATCH_JOBS = env_int("ANONYMIZER_WORKER_BATCH_JOBS", 8)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Presidio logs a warning per document for every entity without a recognizer
    "loggers": {
        "presidio-analyzer": {"level": "ERROR"},
        "presidio-anonymizer": {"level": "ERROR"},
        "axes": {"level": "WARNING"},
    },
}

# --- Accounts, invites, API tokens and the JSON API (webapp.accounts, webapp.api) -------------
INSTALLED_APPS += ["ninja", "webapp.accounts", "webapp.api"]
SITE_URL = env_str("ANONYMIZER_SITE_URL", "http://127.0.0.1:8000")  # links printed or mailed
INVITE_VALID_DAYS = env_int("ANONYMIZER_INVITE_DAYS", 7)
# Mail is off unless EMAIL_HOST is set; invite and reset links are then shown to staff instead.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "anonymizer@localhost")
# A form sent with a stale CSRF token comes back filled in (webapp/failures.py).
CSRF_FAILURE_VIEW = "webapp.failures.csrf_failure"
# Batches (webapp.batches): several documents, one job each; what one batch upload may hold.
INSTALLED_APPS += ["webapp.batches", "webapp.operations"]
BATCH_MAX_DOCUMENTS = env_int("ANONYMIZER_BATCH_MAX_DOCUMENTS", 50)
BATCH_MAX_ZIP_BYTES = env_int("ANONYMIZER_BATCH_MAX_ZIP_BYTES", 20_000_000)
BATCH_MAX_TOTAL_BYTES = env_int("ANONYMIZER_BATCH_MAX_TOTAL_BYTES", 20_000_000)  # all documents
BATCH_MAX_ZIP_ENTRIES = 4 * BATCH_MAX_DOCUMENTS  # folders and OS litter included
BATCH_READ_SECONDS = env_float("ANONYMIZER_BATCH_READ_SECONDS", 60.0)
# Raised from the single-document limit above: past the batch limit a clear form error, and
# far past it (a flood of files) Django refuses the request before reading them.
DATA_UPLOAD_MAX_NUMBER_FILES = 2 * BATCH_MAX_DOCUMENTS
