"""Django's PostgreSQL backend with a bounded connection pool per process (`pool.py`) and a
note of when the database could not be had (config/unavailable.py). ENGINE
"config.postgresql"; config/settings/base.py says when it is used."""
