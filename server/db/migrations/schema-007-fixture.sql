-- A database at schema version 007, before internal objects moved under quire_ (migration 008):
-- every object of a database made by commit d8d2b04 (FTS5 shadow tables left out: each
-- CREATE VIRTUAL TABLE makes its own) after two content types were added through the API:
-- authors, titled by name (its old search index covers only the slug), and news_pending, whose
-- search index took the name of news's pending table (news's triggers now feed it).
CREATE TABLE "kysely_migration" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null);
CREATE TABLE "kysely_migration_lock" ("id" varchar(255) not null primary key, "is_locked" integer default 0 not null);
CREATE TABLE "quire_content_types" ("id" text not null primary key, "slug" text not null unique, "table_name" text not null unique, "title" text not null, "status" text not null, "type" text not null, "custom" integer not null, "columns" text not null, "preview_path" text, "position" integer default 0 not null, "created_at" text not null, "updated_at" text not null, "flat_meta" integer default 0 not null);
CREATE TABLE "news" ("id" text not null primary key, "title" text, "slug" text, "status" text, "published_at" text, "meta" text, "created_at" text not null, "updated_at" text not null, "created_by" text, "updated_by" text);
CREATE UNIQUE INDEX "news_slug_unique" on "news" ("slug");
CREATE INDEX "news_status_idx" on "news" ("status", "id");
CREATE INDEX "news_published_at_idx" on "news" ("published_at", "id");
CREATE INDEX "news_status_published_at_idx" on "news" ("status", "published_at", "id");
CREATE INDEX "news_created_at_idx" on "news" ("created_at", "id");
CREATE INDEX "news_updated_at_idx" on "news" ("updated_at", "id");
CREATE VIRTUAL TABLE "quire_search_news" using fts5("title", "slug", tokenize='trigram case_sensitive 1');
CREATE TRIGGER "quire_search_news_insert" after insert on "news" begin
    insert or replace into "quire_search_news_pending"(rowid) values (new.rowid);
  end;
CREATE TRIGGER "quire_search_news_delete" after delete on "news" begin
    delete from "quire_search_news" where rowid = old.rowid;
    delete from "quire_search_news_pending" where rowid = old.rowid;
  end;
CREATE TRIGGER "quire_search_news_update" after update of "title", "slug" on "news" begin
    delete from "quire_search_news" where rowid = old.rowid;
    insert or replace into "quire_search_news_pending"(rowid) values (new.rowid);
  end;
CREATE TABLE "categories" ("id" text not null primary key, "title" text, "slug" text, "meta" text, "created_at" text not null, "updated_at" text not null, "created_by" text, "updated_by" text);
CREATE UNIQUE INDEX "categories_slug_unique" on "categories" ("slug");
CREATE INDEX "categories_created_at_idx" on "categories" ("created_at", "id");
CREATE INDEX "categories_updated_at_idx" on "categories" ("updated_at", "id");
CREATE VIRTUAL TABLE "quire_search_categories" using fts5("title", "slug", tokenize='trigram case_sensitive 1');
CREATE TABLE "quire_search_categories_pending" (rowid integer primary key);
CREATE TRIGGER "quire_search_categories_insert" after insert on "categories" begin
    insert or replace into "quire_search_categories_pending"(rowid) values (new.rowid);
  end;
CREATE TRIGGER "quire_search_categories_delete" after delete on "categories" begin
    delete from "quire_search_categories" where rowid = old.rowid;
    delete from "quire_search_categories_pending" where rowid = old.rowid;
  end;
CREATE TRIGGER "quire_search_categories_update" after update of "title", "slug" on "categories" begin
    delete from "quire_search_categories" where rowid = old.rowid;
    insert or replace into "quire_search_categories_pending"(rowid) values (new.rowid);
  end;
CREATE TABLE "articles" ("id" text not null primary key, "title" text, "slug" text, "status" text, "published_at" text, "description" text, "body" text, "image" text, "tags" text, "category" text, "meta" text, "created_at" text not null, "updated_at" text not null, "created_by" text, "updated_by" text);
CREATE UNIQUE INDEX "articles_slug_unique" on "articles" ("slug");
CREATE INDEX "articles_status_idx" on "articles" ("status", "id");
CREATE INDEX "articles_published_at_idx" on "articles" ("published_at", "id");
CREATE INDEX "articles_category_idx" on "articles" ("category", "id");
CREATE INDEX "articles_status_published_at_idx" on "articles" ("status", "published_at", "id");
CREATE INDEX "articles_created_at_idx" on "articles" ("created_at", "id");
CREATE INDEX "articles_updated_at_idx" on "articles" ("updated_at", "id");
CREATE VIRTUAL TABLE "quire_search_articles" using fts5("title", "slug", tokenize='trigram case_sensitive 1');
CREATE TABLE "quire_search_articles_pending" (rowid integer primary key);
CREATE TRIGGER "quire_search_articles_insert" after insert on "articles" begin
    insert or replace into "quire_search_articles_pending"(rowid) values (new.rowid);
  end;
CREATE TRIGGER "quire_search_articles_delete" after delete on "articles" begin
    delete from "quire_search_articles" where rowid = old.rowid;
    delete from "quire_search_articles_pending" where rowid = old.rowid;
  end;
CREATE TRIGGER "quire_search_articles_update" after update of "title", "slug" on "articles" begin
    delete from "quire_search_articles" where rowid = old.rowid;
    insert or replace into "quire_search_articles_pending"(rowid) values (new.rowid);
  end;
CREATE TABLE "menu_items" ("id" text not null primary key, "title" text, "slug" text, "url" text, "position" real, "parent" text, "status" text, "meta" text, "created_at" text not null, "updated_at" text not null, "created_by" text, "updated_by" text);
CREATE UNIQUE INDEX "menu_items_slug_unique" on "menu_items" ("slug");
CREATE INDEX "menu_items_status_idx" on "menu_items" ("status", "id");
CREATE INDEX "menu_items_position_idx" on "menu_items" ("position", "id");
CREATE INDEX "menu_items_parent_idx" on "menu_items" ("parent", "id");
CREATE INDEX "menu_items_created_at_idx" on "menu_items" ("created_at", "id");
CREATE INDEX "menu_items_updated_at_idx" on "menu_items" ("updated_at", "id");
CREATE VIRTUAL TABLE "quire_search_menu_items" using fts5("title", "slug", tokenize='trigram case_sensitive 1');
CREATE TABLE "quire_search_menu_items_pending" (rowid integer primary key);
CREATE TRIGGER "quire_search_menu_items_insert" after insert on "menu_items" begin
    insert or replace into "quire_search_menu_items_pending"(rowid) values (new.rowid);
  end;
CREATE TRIGGER "quire_search_menu_items_delete" after delete on "menu_items" begin
    delete from "quire_search_menu_items" where rowid = old.rowid;
    delete from "quire_search_menu_items_pending" where rowid = old.rowid;
  end;
CREATE TRIGGER "quire_search_menu_items_update" after update of "title", "slug" on "menu_items" begin
    delete from "quire_search_menu_items" where rowid = old.rowid;
    insert or replace into "quire_search_menu_items_pending"(rowid) values (new.rowid);
  end;
CREATE TABLE "authors" ("id" text not null primary key, "bio" text, "name" text, "slug" text, "meta" text, "created_at" text not null, "updated_at" text not null, "created_by" text, "updated_by" text);
CREATE UNIQUE INDEX "authors_slug_unique" on "authors" ("slug");
CREATE INDEX "authors_created_at_idx" on "authors" ("created_at", "id");
CREATE INDEX "authors_updated_at_idx" on "authors" ("updated_at", "id");
CREATE VIRTUAL TABLE "quire_search_authors" using fts5("slug", tokenize='trigram case_sensitive 1');
CREATE TABLE "quire_search_authors_pending" (rowid integer primary key);
CREATE TRIGGER "quire_search_authors_insert" after insert on "authors" begin
    insert or replace into "quire_search_authors_pending"(rowid) values (new.rowid);
  end;
CREATE TRIGGER "quire_search_authors_delete" after delete on "authors" begin
    delete from "quire_search_authors" where rowid = old.rowid;
    delete from "quire_search_authors_pending" where rowid = old.rowid;
  end;
CREATE TRIGGER "quire_search_authors_update" after update of "slug" on "authors" begin
    delete from "quire_search_authors" where rowid = old.rowid;
    insert or replace into "quire_search_authors_pending"(rowid) values (new.rowid);
  end;
CREATE TABLE "news_pending" ("id" text not null primary key, "title" text, "meta" text, "created_at" text not null, "updated_at" text not null, "created_by" text, "updated_by" text);
CREATE INDEX "news_pending_created_at_idx" on "news_pending" ("created_at", "id");
CREATE INDEX "news_pending_updated_at_idx" on "news_pending" ("updated_at", "id");
CREATE VIRTUAL TABLE "quire_search_news_pending" using fts5("title", tokenize='trigram case_sensitive 1');
CREATE TABLE "quire_search_news_pending_pending" (rowid integer primary key);
CREATE TRIGGER "quire_search_news_pending_insert" after insert on "news_pending" begin
    insert or replace into "quire_search_news_pending_pending"(rowid) values (new.rowid);
  end;
CREATE TRIGGER "quire_search_news_pending_delete" after delete on "news_pending" begin
    delete from "quire_search_news_pending" where rowid = old.rowid;
    delete from "quire_search_news_pending_pending" where rowid = old.rowid;
  end;
CREATE TRIGGER "quire_search_news_pending_update" after update of "title" on "news_pending" begin
    delete from "quire_search_news_pending" where rowid = old.rowid;
    insert or replace into "quire_search_news_pending_pending"(rowid) values (new.rowid);
  end;
insert into kysely_migration (name, timestamp) values ('001-content-type-registry', '2026-11-23T15:34:50.623Z');
insert into kysely_migration (name, timestamp) values ('002-starter-types', '2026-11-23T15:34:50.719Z');
insert into kysely_migration (name, timestamp) values ('004-article-and-menu-types', '2026-11-23T15:34:50.874Z');
insert into kysely_migration (name, timestamp) values ('005-search-index', '2026-11-23T15:34:50.877Z');
insert into kysely_migration (name, timestamp) values ('006-updated-at-index', '2026-11-23T15:34:50.883Z');
insert into kysely_migration (name, timestamp) values ('007-search-index-batches', '2026-11-23T15:34:50.896Z');
insert into kysely_migration_lock (id, is_locked) values ('migration_lock', 0);
insert into quire_content_types (id, slug, table_name, title, status, type, custom, columns, preview_path, position, created_at, updated_at, flat_meta) values ('news', 'news', 'news', 'News', 'published', 'collection', 0, '[{"name":"title","label":"Title","type":"text","required":true},{"name":"slug","label":"Slug","type":"slug","required":true,"parent":"title"},{"name":"status","label":"Status","type":"select","required":true,"options":[{"id":"draft","text":"Draft"},{"id":"published","text":"Published"},{"id":"archived","text":"Archived"}]},{"name":"published_at","label":"Published at","type":"datetime","required":true}]', null, 0, '2026-11-23 15:34:50.627000', '2026-11-23 15:34:50.627000', 0);
insert into quire_content_types (id, slug, table_name, title, status, type, custom, columns, preview_path, position, created_at, updated_at, flat_meta) values ('categories', 'categories', 'categories', 'Categories', 'published', 'collection', 0, '[{"name":"title","label":"Title","type":"text","required":true},{"name":"slug","label":"Slug","type":"slug","required":true,"parent":"title"}]', null, 1, '2026-11-23 15:34:50.627000', '2026-11-23 15:34:50.627000', 0);
insert into quire_content_types (id, slug, table_name, title, status, type, custom, columns, preview_path, position, created_at, updated_at, flat_meta) values ('articles', 'articles', 'articles', 'Articles', 'published', 'collection', 0, '[{"name":"title","label":"Title","type":"text","required":true},{"name":"slug","label":"Slug","type":"slug","required":true,"parent":"title"},{"name":"status","label":"Status","type":"select","required":true,"options":[{"id":"draft","text":"Draft"},{"id":"published","text":"Published"},{"id":"archived","text":"Archived"}]},{"name":"published_at","label":"Published at","type":"datetime","required":true},{"name":"description","label":"Description","type":"textarea","required":false},{"name":"body","label":"Body","type":"markdown","required":false},{"name":"image","label":"Image","type":"image","required":false},{"name":"tags","label":"Tags","type":"tags","required":false},{"name":"category","label":"Category","type":"relation","required":false,"target":"categories"}]', null, 2, '2026-11-23 15:34:50.728000', '2026-11-23 15:34:50.728000', 1);
insert into quire_content_types (id, slug, table_name, title, status, type, custom, columns, preview_path, position, created_at, updated_at, flat_meta) values ('menu_items', 'menu_items', 'menu_items', 'Menu items', 'published', 'collection', 0, '[{"name":"title","label":"Title","type":"text","required":true},{"name":"slug","label":"Slug","type":"slug","required":true,"parent":"title"},{"name":"url","label":"URL","type":"text","required":false},{"name":"position","label":"Position","type":"number","required":false},{"name":"parent","label":"Parent item","type":"relation","required":false,"target":"menu_items"},{"name":"status","label":"Status","type":"select","required":true,"options":[{"id":"draft","text":"Draft"},{"id":"published","text":"Published"},{"id":"archived","text":"Archived"}]}]', null, 3, '2026-11-23 15:34:50.728000', '2026-11-23 15:34:50.728000', 0);
insert into quire_content_types (id, slug, table_name, title, status, type, custom, columns, preview_path, position, created_at, updated_at, flat_meta) values ('authors', 'authors', 'authors', 'Authors', 'published', 'collection', 1, '[{"name":"bio","label":"Bio","type":"textarea","required":false},{"name":"name","label":"Name","type":"text","required":true},{"name":"slug","label":"Slug","type":"slug","required":true,"parent":"name"}]', null, 4, '2026-11-23 15:34:50.981000', '2026-11-23 15:34:50.981000', 0);
insert into quire_content_types (id, slug, table_name, title, status, type, custom, columns, preview_path, position, created_at, updated_at, flat_meta) values ('news-pending', 'news-pending', 'news_pending', 'News pending', 'published', 'collection', 1, '[{"name":"title","label":"Title","type":"text","required":true}]', null, 5, '2026-11-23 15:34:51.009000', '2026-11-23 15:34:51.009000', 0);
