import type { Generated } from 'kysely';

/** Row of the content-type registry table. */
export interface ContentTypeTable {
  id: string;
  slug: string;
  table_name: string;
  title: string;
  status: string;
  type: string;
  custom: number;
  /** The column descriptors, as JSON text. */
  columns: string;
  preview_path: string | null;
  created_at: string;
  updated_at: string;
  position: Generated<number>;
  /** 1 when rows also carry flat meta_title/meta_description/meta_keywords. */
  flat_meta: Generated<number>;
}

/**
 * The statically known tables. Content tables are created at run time from the registry and are
 * reached through the content repository, which checks every identifier against the registry.
 */
export interface QuireDatabase {
  quire_content_types: ContentTypeTable;
  /** One row: a counter every content-type change increments (see migration 009). */
  quire_registry_version: { id: number; version: number };
  /** Site-wide settings, one row a name (see settings-repository.ts). */
  quire_settings: SettingTable;
}

/** Row of the site-wide settings table. */
export interface SettingTable {
  name: string;
  value: string;
  changed_at: string;
  changed_by: string | null;
}

/** Name of the registry table. */
export const REGISTRY_TABLE = 'quire_content_types';
