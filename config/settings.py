"""Head Table settings, read from environment variables.

With no environment at all this is the venue default: SQLite and a filesystem Celery broker under var/, a secret key
made once and kept in var/. Set DATABASE_URL, CELERY_BROKER_URL, DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS for a
hosted server.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
import zoneinfo
from collections.abc import Callable, Mapping
from pathlib import Path

import dj_database_url
import tzlocal

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("HEADTABLE_VAR_DIR", BASE_DIR / "var"))
# The address phones use (printed on every table card and score sheet): a hosted server's public address, or a
# venue's fixed one. Empty: the address the organizer's page was opened at, or this laptop's network address when
# that was its own 127.0.0.1 (tournament.addresses).
PHONE_URL = os.environ.get("HEADTABLE_PHONE_URL", "")
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def _secret_key() -> str:
    """The key from the environment, or one made on first start and kept in var/secret_key."""
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
# At the venue phones reach the laptop by whatever address the Wi-Fi gave it, so any host is accepted by default.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "tournament",
    "scoring",
    "axes",
]

MIDDLEWARE = [
    "config.middleware.LoadMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.AdminOnTheLaptopMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.ClubMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.NotAllowedMiddleware",
    "config.middleware.HtmxVaryMiddleware",
    "config.middleware.DatabaseDownMiddleware",
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out login
]

# A poll answered while this many requests are under way in the same server process (each has 8 threads) tells
# its page to wait this many seconds more before the next (config.middleware.LoadMiddleware).
POLL_BUSY_REQUESTS = int(os.environ.get("HEADTABLE_POLL_BUSY_REQUESTS", "6"))
POLL_BACK_OFF_SECONDS = int(os.environ.get("HEADTABLE_POLL_BACK_OFF_SECONDS", "5"))
# A poll that arrives while a score (any POST) is being saved in the same process waits up to this long for it to
# finish, so that the saving thread has Python's lock to itself rather than sharing it with a wave of polls.
POLL_YIELD_SECONDS = int(os.environ.get("HEADTABLE_POLL_YIELD_MS", "200")) / 1000

ROOT_URLCONF = "config.urls"
FORM_RENDERER = "config.forms.FastWidgets"  # Django's, with the plain boxes drawn in Python (see there)

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
                "tournament.context_processors.choices",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'headtable.sqlite3'}")
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        # SQLite keeps each server thread's connection open: opening one (and its PRAGMAs) cost more than a
        # phone's whole "nothing new" poll. Elsewhere the default stays Django's; hosted sets it (README).
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "600" if DATABASE_URL.startswith("sqlite") else "0")),
    )
}
# FULL: each commit reaches the disk before "Saved." is sent, so a power cut loses no score a phone was told was
# saved. Measured: 0.25-0.3 ms a commit on this project's machine, and no change to a full room's score posts
# (README); NORMAL is a hair faster and may lose the last commits to a power cut (never the database itself).
SQLITE_SYNCHRONOUS = os.environ.get("HEADTABLE_SQLITE_SYNCHRONOUS", "FULL").upper()
if SQLITE_SYNCHRONOUS not in ("NORMAL", "FULL"):
    raise ValueError("HEADTABLE_SQLITE_SYNCHRONOUS is NORMAL or FULL")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["ENGINE"] = "config.sqlite"  # Django's, with one process's writers in turn (see there)
    # A burst of score entries from every table at the bell must queue, never fail with "database is locked":
    # WAL lets readers work beside the writer, IMMEDIATE takes the write lock at the start of each transaction,
    # and the timeout makes a second writer wait its turn.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": f"PRAGMA journal_mode=WAL; PRAGMA synchronous={SQLITE_SYNCHRONOUS}; PRAGMA foreign_keys=ON;",
    }
    # The tests' database in memory, as Django does for its own SQLite engine (one per test process under xdist).
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login guesses (django-axes): five wrong passwords for one name from one address lock that name out from that
# address for five minutes, with no password hashed while it lasts. Name and address together, so a flood from a
# phone in the hall never locks the organizer out at the laptop. The admin's login is covered the same way.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = dt.timedelta(minutes=5)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:night_list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"


def hall_zone(environ: Mapping[str, str] = os.environ, local: Callable[[], str | None] | None = None) -> str:
    """The hall's clock, which every time on a page, a sheet or a file is shown in: TIME_ZONE where it is set (a
    hosted server names its clubs' zone), otherwise the laptop's own zone as the machine names it (tzlocal reads it
    on Linux, macOS and Windows alike), and UTC only where the machine names none it knows."""
    if zone := environ.get("TIME_ZONE", "").strip():
        return zone
    try:
        named = (local or tzlocal.get_localzone_name)()
    except Exception:  # a machine whose zone cannot be read (tzlocal raises on an unknown or broken setting)
        named = None
    if not named:
        return "UTC"
    try:
        zoneinfo.ZoneInfo(named)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return named


TIME_ZONE = hall_zone()
USE_I18N = True
USE_TZ = True

# Built files (big print batches) live under var/ and are handed out by an organizer-only view, never served raw.
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media/"

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
if DATABASE_URL.startswith("sqlite"):
    # At the venue every file under var/ is the laptop user's alone, the collected static files too (the server
    # that reads them runs as that user; the run command makes var/ itself 0700).
    FILE_UPLOAD_PERMISSIONS, FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o600, 0o700
STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Tests and DEBUG runs serve straight from the finders, so collectstatic is needed only for the real server.
WHITENOISE_USE_FINDERS = True

# A hosted server behind HTTPS (DJANGO_HTTPS=1): secure cookies, redirect to https, HSTS. At the venue the laptop
# serves plain http on the local Wi-Fi, so all of this stays off.
HTTPS = env_bool("DJANGO_HTTPS", False)
# The admin answers only on the laptop itself at the venue; anywhere on a hosted server (behind TLS).
ADMIN_ANYWHERE = env_bool("HEADTABLE_ADMIN_ANYWHERE", HTTPS)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", HTTPS)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Rate limits (table links, sign-ups, the door's walk-ins and check-ins) count in the "limits" cache, which every
# web process shares: at the venue a small SQLite file of its own under var/ (config/counters.py), hosted Redis
# (CACHE_URL=redis://…). It holds only those counters, apart from the drawn room displays in "default" (each
# process's memory at the venue), so that no other traffic can push a counter out and reset it.
_REDIS = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ.get("CACHE_URL", "")}
CACHES = (
    {"default": _REDIS, "limits": {**_REDIS, "KEY_PREFIX": "limits"}}
    if os.environ.get("CACHE_URL", "").startswith("redis")
    else {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"},
        "limits": {"BACKEND": "config.counters.CounterCache", "LOCATION": str(VAR_DIR / "limits.sqlite3")},
    }
)

# E-mail (the players' results links): none at the venue unless a mail server is named. With no EMAIL_HOST the
# messages go to the worker's log (Django's console backend), so a night ended offline loses nothing but the mail.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if env_bool("EMAIL_USE_TLS", False) else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Head Table <headtable@localhost>")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)

# Celery: a broker that needs no server by default, files under var/broker.
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"  # kombu's, writing each message whole (see there)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "store_processed": False,
        # The exchanges' tables: under var/ too, not in whatever folder the worker was started from.
        "control_folder": str(BROKER_DIR / "control"),
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# A print job's build that has said nothing for this long was left by a worker that died: the next tick sends it
# again and another build takes it over (tally cards say something card by card; other sheets build in seconds).
PRINT_JOB_STALE_SECONDS = int(os.environ.get("HEADTABLE_PRINT_JOB_STALE_SECONDS", "120"))
# A job whose build was taken this many times and never finished (its worker killed each time, say for memory) is
# marked failed rather than taken again.
PRINT_JOB_ATTEMPTS = 3
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# The database is the truth about time: beat asks it every few seconds whether a bell or a start is due.
CELERY_BEAT_SCHEDULE = {
    "rounds-tick": {"task": "tournament.tasks.tick", "schedule": 3.0},
    # Print jobs a dead worker left are looked for less often: they wait PRINT_JOB_STALE_SECONDS anyway.
    "print-jobs-revive": {"task": "tournament.tasks.revive_print_jobs", "schedule": 15.0},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"quiet_refusals": {"()": "config.logfilters.QuietRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["quiet_refusals"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
