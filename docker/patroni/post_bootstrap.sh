#!/bin/sh
# post_bootstrap.sh CONNINFO — Patroni runs it once, on the node that initialises the cluster
# (patroni.yml, bootstrap.post_bootstrap), with the superuser's connection string: it creates
# the app's role and database. The role's password comes from APP_DB_PASSWORD, handed to psql
# as a variable and quoted by psql (:'pw'), never pasted into the SQL text.
set -eu
: "${APP_DB_PASSWORD:?APP_DB_PASSWORD must be set}"
psql -X -q -v ON_ERROR_STOP=1 -v pw="$APP_DB_PASSWORD" -d "$1" <<'SQL'
CREATE ROLE dicehospital LOGIN PASSWORD :'pw';
CREATE DATABASE dicehospital OWNER dicehospital;
SQL
