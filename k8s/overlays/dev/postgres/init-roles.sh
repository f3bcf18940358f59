#!/bin/sh
# Runs once, when the postgres image makes its data directory (dev overlay, ADR 0051): one login role per service, each
# owning its own schema, with the password from that service's own Secret. No service connects as the superuser, so
# none can read another's schema or switch off the audit log's triggers (docs/operations.md, "The audit log").
set -eu

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v db="$POSTGRES_DB" <<'SQL'
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
SQL

# make_role <role> <schema> <password>: CREATE on the database lets the service's own `CREATE SCHEMA IF NOT EXISTS`
# at start pass its privilege check; the schema already exists and is the role's.
make_role() {
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v db="$POSTGRES_DB" -v role="$1" -v schema="$2" -v password="$3" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
GRANT CONNECT, CREATE ON DATABASE :"db" TO :"role";
CREATE SCHEMA :"schema" AUTHORIZATION :"role";
SQL
}

make_role auth_service auth "$AUTH_SERVICE_DB_PASSWORD"
make_role listings_service listings "$LISTINGS_SERVICE_DB_PASSWORD"
make_role bidding_service bidding "$BIDDING_SERVICE_DB_PASSWORD"
make_role billing_service billing "$BILLING_SERVICE_DB_PASSWORD"
make_role admin_service admin "$ADMIN_SERVICE_DB_PASSWORD"
make_role notifications_service notifications "$NOTIFICATIONS_SERVICE_DB_PASSWORD"
