-- Trigram matching for member and post search (similarity, ILIKE with GIN indexes). Trusted extension since
-- PostgreSQL 13, so the database owner may create it; PGlite loads it from @electric-sql/pglite/contrib.
-- Always in "public" so every schema on the search_path (including per-test schemas) sees one copy.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
