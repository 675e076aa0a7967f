import { ACCOUNT_OPTIONS } from '../accounts/account-command.js';
import { DEFAULT_AUDIT_DAYS } from '../audit/audit-service.js';
import { BACKUP_OPTIONS } from '../backup/backup-command.js';
import { COPY_OPTIONS } from '../backup/copy-command.js';
import { DEFAULT_CHANGES_DAYS } from '../changes/change-feed-service.js';
import { DEFAULT_EVENT_STREAM_LIMITS } from '../changes/event-streams.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../config/listen-defaults.js';
import { EXPORT_OPTIONS } from '../export/export-command.js';
import { DEFAULT_BODY_LIMIT } from '../http/body-parsing.js';
import { IMPORT_OPTIONS } from '../import/import-command.js';
import { DEFAULT_IMAGE_CACHE_MB } from '../media/image-options.js';
import { MEDIA_OPTIONS } from '../media/media-prune-command.js';
import { DEFAULT_UPLOAD_LIMIT } from '../media/media-store.js';
import { DEFAULT_TRASH_DAYS } from '../revisions/revision-service.js';
import { TYPES_OPTIONS } from '../types-gen/types-command.js';
import type { CommandEntry, CommandOptions, FlagHelp } from './command-help.js';

/** `--db` and `--database`, as every command that opens a site takes them. */
function databaseFlags(defaultFile: string): Record<'db' | 'database', FlagHelp> {
  return {
    db: {
      value: 'FILE',
      text: 'The SQLite database file',
      // Said as it is on this machine now: QUIRE_USER_DATA_DIR moves it.
      default: `QUIRE_DB, else ${defaultFile}`,
    },
    database: {
      value: 'URL',
      text: 'A PostgreSQL database instead (postgres://user:password@host:5432/name)',
      default: 'QUIRE_DATABASE_URL',
    },
  };
}

const bytes = (value: number) => `${value} (${value / 1024 / 1024} MiB)`;

/**
 * Every `quire` command in the order `quire help` lists them, each with its help and the options
 * its parser takes (`serveOptions`: `quire serve`'s, which live beside its parser in
 * config/quire-config.ts). `defaultFile`: the SQLite file a command opens without `--db` or a
 * variable, as `defaultDatabaseFile` gives it for the environment the command line was given.
 */
export function quireCommands(
  serveOptions: CommandOptions,
  defaultFile = '<user-data folder>/content.sqlite',
): CommandEntry[] {
  const database = databaseFlags(defaultFile);
  return [
    {
      name: 'serve',
      summary: 'Run the content API and the editor in the browser (the default command)',
      usage: ['serve [options]', '[options]'],
      notes:
        'Stops cleanly on Ctrl+C. Every flag also has a variable where its default says so; an empty variable counts as unset.',
      options: serveOptions,
      flags: {
        ...database,
        port: {
          value: 'N',
          text: 'Port to listen on (0 picks a free one)',
          default: `QUIRE_PORT, else ${DEFAULT_PORT}`,
        },
        host: {
          value: 'HOST',
          text: 'Address to listen on; beyond loopback an API token is required',
          default: `QUIRE_HOST, else ${DEFAULT_HOST}`,
        },
        editor: {
          value: 'NAME',
          text: 'Name written as the author of changes',
          default: 'QUIRE_EDITOR, else your OS user name',
        },
        demo: { text: 'Add sample rows to the empty starter types before answering' },
        'no-backups': { text: 'Take no scheduled backups (throwaway databases)' },
        'backup-dir': {
          value: 'DIR',
          text: "Where a PostgreSQL site's backups go (a SQLite file keeps them in backups/ beside it)",
          default: 'backups/ in the user-data folder',
        },
        'body-limit': { value: 'BYTES', text: 'Largest request body', default: bytes(DEFAULT_BODY_LIMIT) },
        'upload-limit': { value: 'BYTES', text: 'Largest uploaded file', default: bytes(DEFAULT_UPLOAD_LIMIT) },
        'image-sizes': {
          value: 'LIST',
          text: 'The only widths and heights image variants may have (?w=, ?h=), comma-separated; others are refused',
          default: 'any up to 4096 and the original',
        },
        'keep-image-metadata': { text: 'Keep EXIF, XMP and IPTC metadata (GPS positions too) in uploaded images' },
        'image-cache-mb': {
          value: 'MB',
          text: 'Size cap of the resized-image cache; the least recently used variants are deleted past it',
          default: `${DEFAULT_IMAGE_CACHE_MB} MB`,
        },
        'allow-host': { value: 'NAME', text: 'Another host name to answer to (behind a proxy or on a LAN)' },
        'cors-origin': { value: 'URL', text: 'An origin allowed to read the API from a browser' },
        'trust-proxy': {
          value: 'LIST',
          text: 'Reverse proxies whose X-Forwarded-For names the client: addresses, CIDR ranges or loopback, comma-separated',
          default: 'QUIRE_TRUST_PROXY, else none',
        },
        'require-2fa': {
          value: 'WHO',
          text: 'admins or everyone: those accounts must set up two-factor sign-in before doing anything else',
          default: 'QUIRE_REQUIRE_2FA, else no one',
        },
        'public-url': {
          value: 'URL',
          text: 'The origin browsers reach Quire at behind a proxy (single sign-on sends them back there)',
          default: 'QUIRE_PUBLIC_URL, else the address asked for',
        },
        'oidc-issuer': {
          value: 'URL',
          text: 'Sign in through this OpenID Connect provider (its issuer URL); the client secret comes from QUIRE_OIDC_CLIENT_SECRET',
          default: 'QUIRE_OIDC_ISSUER, else none',
        },
        'oidc-client-id': { value: 'ID', text: "Quire's client id at the provider", default: 'QUIRE_OIDC_CLIENT_ID' },
        'oidc-role': {
          value: 'RULE',
          text: 'ROLE:CLAIM=VALUE or ROLE:*, repeatable, first match wins (admin:groups=quire-admins, editor:email_domain=example.com); no match is refused',
          default: 'QUIRE_OIDC_ROLES (separated by ;)',
        },
        'oidc-name': {
          value: 'NAME',
          text: 'The provider as the sign-in button names it',
          default: "QUIRE_OIDC_NAME, else the issuer's host",
        },
        'oidc-invited-only': {
          text: 'Sign in only accounts an admin made first (quire user add NAME --sso); make none',
        },
        'no-password-sign-in': { text: 'Turn off sign-in with a password (quire user still works)' },
        token: {
          value: 'TOKEN',
          text: 'API token every request must send (Authorization: Bearer ...)',
          default: 'QUIRE_TOKEN; generated when listening beyond loopback',
        },
        'keep-revisions': { value: 'N', text: 'Revisions kept per row', default: 'QUIRE_KEEP_REVISIONS, else all' },
        'trash-days': {
          value: 'N',
          text: 'Days a deleted row stays restorable',
          default: `QUIRE_TRASH_DAYS, else ${DEFAULT_TRASH_DAYS}`,
        },
        'audit-days': {
          value: 'N',
          text: 'Days a security event stays in the audit log',
          default: `QUIRE_AUDIT_DAYS, else ${DEFAULT_AUDIT_DAYS}`,
        },
        'changes-days': {
          value: 'N',
          text: 'Days a change stays in the change feed (GET /api/changes)',
          default: `QUIRE_CHANGES_DAYS, else ${DEFAULT_CHANGES_DAYS}`,
        },
        'event-streams': {
          value: 'N',
          text: 'Open event streams (GET /api/events) this server takes at most; more get a 429',
          default: `QUIRE_EVENT_STREAMS, else ${DEFAULT_EVENT_STREAM_LIMITS.total}`,
        },
        'event-streams-per-credential': {
          value: 'N',
          text: 'Open event streams one session or API token may hold at most',
          default: `QUIRE_EVENT_STREAMS_PER_CREDENTIAL, else ${DEFAULT_EVENT_STREAM_LIMITS.perCredential}`,
        },
      },
      examples: [
        'quire serve',
        'quire serve --db ./site.sqlite --port 8080 --demo',
        'quire serve --database postgres://quire@127.0.0.1/site --host 0.0.0.0 --allow-host cms.example.org',
        'quire serve --allow-host cms.example.org --trust-proxy loopback   # behind a proxy on this machine',
        "quire serve --oidc-issuer https://id.example.com/realms/team --oidc-client-id quire --oidc-role 'admin:groups=quire-admins' --oidc-role 'editor:email_domain=example.com'",
      ],
    },
    {
      name: 'types',
      summary: "Print the TypeScript declarations of the site's content types",
      usage: ['types [--out FILE] [--db FILE | --database URL]'],
      options: TYPES_OPTIONS,
      flags: {
        out: { value: 'FILE', text: 'Write them to FILE (left alone when unchanged)', default: 'standard output' },
        ...database,
      },
      examples: ['quire types', 'quire types --out src/quire-types.d.ts'],
    },
    {
      name: 'import',
      summary: 'Load rows from a JSON, NDJSON or CSV file into a content type, all or none',
      usage: ['import --type TYPE [--editor NAME] [--db FILE | --database URL] FILE'],
      notes: 'FILE ends in .json (an array of rows), .ndjson or .jsonl (a row a line) or .csv (a header line).',
      options: IMPORT_OPTIONS,
      flags: {
        type: { value: 'TYPE', text: "The content type's table to import into (required)" },
        editor: { value: 'NAME', text: 'Name written as the rows’ author', default: 'import' },
        ...database,
      },
      examples: [
        'quire import --type articles articles.ndjson',
        'quire import --type news --db ./site.sqlite news.csv',
      ],
    },
    {
      name: 'export',
      summary: "Write the site's content as JSON files, for a static-site build without a server",
      usage: [
        'export --out DIR [--type TYPE]... [--published-only] [--watch] [--db FILE | --database URL]',
        'export --out DIR --locale CODE [and the flags above]',
        'export --out DIR --image-widths W,W [--image-formats F,F] [and the flags above]',
        'export --out DIR --since [CURSOR] [--watch] [--db FILE | --database URL]',
      ],
      options: EXPORT_OPTIONS,
      flags: {
        out: { value: 'DIR', text: 'The folder to write (required); files no longer in the site are removed' },
        type: { value: 'TYPE', text: 'Only this content type', default: 'every type' },
        'published-only': { text: 'Only rows whose status is published' },
        locale: {
          value: 'CODE',
          text:
            'Write rows read in this locale (localized fields after fallback, with locale and fallbacks); ' +
            'without it, localized fields hold every locale’s own value',
          default: 'every locale',
        },
        since: {
          value: '[CURSOR]',
          text:
            'Rewrite only the files of rows changed since this change-feed cursor, and remove deleted ones; ' +
            'without a value, since the cursor the export in --out recorded. The export keeps its own types',
          default: 'a full export',
        },
        watch: { text: 'After exporting, keep running and apply each change as it is saved (Ctrl+C ends)' },
        'image-widths': {
          value: 'W,W',
          text:
            'Write resized variants of each image at these widths (none wider than the original) and a ' +
            'manifest per image (media/<path>.json); only new or changed ones are made',
          default: 'no variants',
        },
        'image-formats': {
          value: 'F,F',
          text: 'The variants’ formats, best first, from avif, webp, jpeg and png',
          default: 'avif,webp',
        },
        ...database,
      },
      examples: [
        'quire export --out site-data',
        'quire export --out site-data --image-widths 480,960,1920 --image-formats avif,webp',
        'quire export --out site-data --type articles --published-only',
        'quire export --out site-data/de --locale de',
        'quire export --out site-data --since',
        'quire export --out site-data --watch',
      ],
    },
    {
      name: 'backup',
      summary: 'Back up the database and its uploads',
      usage: ['backup [--db FILE | --database URL [--backup-dir DIR]]'],
      notes: "A SQLite file's backups go to backups/ beside it; a PostgreSQL site's to --backup-dir.",
      options: BACKUP_OPTIONS,
      flags: {
        ...database,
        'backup-dir': {
          value: 'DIR',
          text: "Where a PostgreSQL site's backups go",
          default: 'backups/ in the user-data folder',
        },
        force: { text: 'Not for backup (see quire help restore)' },
      },
      examples: ['quire backup', 'quire backup --db ./site.sqlite'],
    },
    {
      name: 'restore',
      summary: 'Put a backup back; what it replaces is kept',
      usage: ['restore BACKUP [--db FILE | --database URL [--force] [--backup-dir DIR]]'],
      options: BACKUP_OPTIONS,
      flags: {
        ...database,
        'backup-dir': {
          value: 'DIR',
          text: "Where a PostgreSQL site's backups are",
          default: 'backups/ in the user-data folder',
        },
        force: { text: 'Replace a PostgreSQL database that has content' },
      },
      examples: [
        'quire restore ~/.config/Quire/backups/content-2026-11-28T09-30-00-000Z',
        'quire restore ./backups/site-2026-11-28T09-30-00-000Z --db ./site.sqlite',
      ],
    },
    {
      name: 'copy',
      summary: 'Copy a whole site between SQLite files and PostgreSQL databases',
      usage: ['copy --from FILE|URL --to FILE|URL [--force]'],
      options: COPY_OPTIONS,
      flags: {
        from: { value: 'FILE|URL', text: 'The site to copy (never written)' },
        to: { value: 'FILE|URL', text: 'Where the copy goes' },
        force: { text: 'Replace the content of a target that has some' },
      },
      examples: [
        'quire copy --from ~/.config/Quire/content.sqlite --to postgres://quire@127.0.0.1/site',
        'quire copy --from postgres://quire@127.0.0.1/site --to ./site.sqlite',
      ],
    },
    {
      name: 'media',
      summary: 'List uploads no row uses (media prune), and delete them with --yes',
      usage: ['media prune [--yes] [--db FILE | --database URL]'],
      notes: 'Files uploaded in the last hour are never listed. Safe while a server runs.',
      options: MEDIA_OPTIONS,
      flags: { yes: { text: 'Delete them', default: 'only list them' }, ...database },
      examples: ['quire media prune', 'quire media prune --yes'],
    },
    {
      name: 'user',
      summary: 'Add and manage the accounts that sign in to the editor and the API',
      usage: [
        'user add NAME --role admin|editor|author|viewer [--types a,b] [--sso]',
        'user list',
        'user role NAME ROLE [--types a,b]',
        'user passwd NAME',
        'user disable NAME',
        'user enable NAME',
        'user 2fa-reset NAME',
      ],
      notes:
        'Passwords are asked for on the terminal, never taken from the command line. Each form takes --db or --database.',
      options: ACCOUNT_OPTIONS,
      flags: {
        role: { value: 'ROLE', text: 'admin, editor, author or viewer' },
        types: { value: 'a,b', text: 'Limit the account to these content types', default: 'all types' },
        sso: {
          text: 'No password: the account signs in only through the identity provider (--oidc-issuer), bound by name or e-mail',
        },
        expires: { value: 'DAYS', text: 'Not for accounts (see quire help token)' },
        ...database,
      },
      examples: [
        'quire user add ana --role admin',
        'quire user add sam --role author --types news,articles',
        'quire user add ana@example.com --role editor --sso   # invited for single sign-on',
        'quire user list',
        'quire user 2fa-reset sam   # a lost phone: sam signs in with the password, then enrols again',
      ],
    },
    {
      name: 'token',
      summary: 'Add, list and revoke API tokens for scripts and site builds',
      usage: ['token add NAME --role ROLE [--types a,b] [--expires DAYS]', 'token list', 'token revoke NAME'],
      notes: 'The new token is printed once. Each form takes --db or --database.',
      options: ACCOUNT_OPTIONS,
      flags: {
        role: { value: 'ROLE', text: 'admin, editor, author or viewer' },
        types: { value: 'a,b', text: 'Limit the token to these content types', default: 'all types' },
        expires: { value: 'DAYS', text: 'Days until it expires', default: 'never' },
        sso: { text: 'Not for tokens (see quire help user)' },
        ...database,
      },
      examples: ['quire token add site-build --role viewer --expires 90', 'quire token revoke site-build'],
    },
    {
      name: 'help',
      summary: 'Show this list, or one command’s options and examples',
      usage: ['help [COMMAND]', 'COMMAND --help', '--version'],
      options: {},
      flags: {},
      examples: ['quire help', 'quire help import', 'quire export --help'],
    },
  ];
}
