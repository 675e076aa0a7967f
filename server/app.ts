import { existsSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { AccountService } from './accounts/account-service.js';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimiter, type SignInLimits } from './accounts/sign-in-limiter.js';
import type { SingleSignOnConfig } from './accounts/single-sign-on-config.js';
import { SingleSignOnService } from './accounts/single-sign-on-service.js';
import { TokenService } from './accounts/token-service.js';
import { type TwoFactorOptions, TwoFactorService } from './accounts/two-factor-service.js';
import { type AuditOptions, AuditService } from './audit/audit-service.js';
import { type ChangeFeedOptions, ChangeFeedService } from './changes/change-feed-service.js';
import { EventHub, type EventHubOptions } from './changes/event-streams.js';
import { ContentTypeRegistry } from './content/content-type-registry.js';
import { ContentTypeService } from './content/content-type-service.js';
import { ContentWrites, committedReads } from './content/content-writes.js';
import { RowService } from './content/row-service.js';
import { StarterService } from './content/starter-service.js';
import type { DatabaseMedia, QuireDb } from './db/database.js';
import { AccountRepository } from './db/repositories/account-repository.js';
import { ContentTypeRepository } from './db/repositories/content-type-repository.js';
import { TwoFactorRepository } from './db/repositories/two-factor-repository.js';
import { type HookOptions, HookService } from './hooks/hook-service.js';
import { accountRoutes } from './http/account-routes.js';
import { assetFileRoutes, assetRoutes } from './http/asset-routes.js';
import { auditRoutes } from './http/audit-routes.js';
import { authGuard, credentialCheck } from './http/auth-guard.js';
import { authRoutes } from './http/auth-routes.js';
import { bodyParsing, bodyReader, DEFAULT_BODY_LIMIT } from './http/body-parsing.js';
import { changeRoutes } from './http/change-routes.js';
import { contentTypeRoutes } from './http/content-type-routes.js';
import { describeRoutes } from './http/describe-routes.js';
import { editorHeaders } from './http/editor-headers.js';
import { errorMiddleware, notFoundHandler } from './http/error-middleware.js';
import { conditionalGets } from './http/etag.js';
import { eventRoutes } from './http/event-routes.js';
import { hookRoutes } from './http/hook-routes.js';
import { localeRoutes } from './http/locale-routes.js';
import { localhostGuards, type SecurityOptions } from './http/localhost-guards.js';
import { mediaRoutes, noMediaRoutes, unusedMediaRoutes, uploadRoutes } from './http/media-routes.js';
import { requestListener } from './http/request-listener.js';
import { revisionRoutes } from './http/revision-routes.js';
import { rowRoutes } from './http/row-routes.js';
import { scheduleRoutes } from './http/schedule-routes.js';
import type { Services } from './http/services.js';
import { singleSignOnRoutes } from './http/sso-routes.js';
import { starterRoutes } from './http/starter-routes.js';
import { twoFactorRoutes } from './http/two-factor-routes.js';
import { LocaleService } from './locales/locale-service.js';
import { localizedTableValues } from './locales/localized-table-values.js';
import { assetFocalPoints } from './media/asset-focal-points.js';
import { AssetService } from './media/asset-service.js';
import { DEFAULT_IMAGE_OPTIONS, type ImageOptions } from './media/image-options.js';
import { ImageProcess } from './media/image-process.js';
import { withImagePreparation } from './media/image-upload.js';
import { DEFAULT_UPLOAD_LIMIT } from './media/media-store.js';
import { ImageVariants } from './media/variant-cache.js';
import { RevisionRetention, revisionRecorder } from './revisions/revision-record.js';
import { type RevisionOptions, RevisionService } from './revisions/revision-service.js';
import { RowSchedules } from './schedule/row-schedules.js';
import { type SchedulerOptions, ScheduleService } from './schedule/schedule-service.js';

/** What the app needs to know to serve a database. */
export interface AppOptions {
  database: QuireDb;
  /** Name recorded in created_by/updated_by. */
  editorName: string | null;
  /** Largest request body in bytes. */
  bodyLimit?: number;
  /** Largest uploaded file in bytes (`POST /api/uploads`). */
  uploadLimit?: number;
  /** The image pipeline (`--image-sizes`, `--keep-image-metadata`, limits); DEFAULT_IMAGE_OPTIONS for what is not given. */
  images?: Partial<ImageOptions>;
  /** Folder of the built editor, served at `/` when it exists. */
  editorDir?: string | null;
  /** Where unexpected errors are reported. */
  log?: (message: string, error: unknown) => void;
  /** Allowed hosts, CORS origins and API token; the defaults serve loopback to the editor only. */
  security?: SecurityOptions;
  /** How long a sign-in session lasts without use (QuireConfig.sessionIdleMs; default 12 hours). */
  sessionIdleMs?: number;
  /** Failed sign-ins per address and per name before slowing and refusing (see SignInLimiter). */
  signInLimits?: Partial<SignInLimits>;
  /**
   * Reverse proxies whose X-Forwarded-For names the client (`--trust-proxy`, checked by
   * `parseTrustedProxies`): addresses, CIDR ranges or `loopback`. None by default.
   */
  trustProxy?: readonly string[];
  /** Who must enrol in two-factor sign-in before doing anything else (`--require-2fa`; no one by default), and its clock. */
  twoFactor?: TwoFactorOptions;
  /** Revisions kept per row, the trash's retention, and the clock they go by. */
  revisions?: RevisionOptions;
  /** The scheduler's clock and how often it looks for due changes. */
  scheduler?: SchedulerOptions;
  /** Build hooks' clock, debounce, retries and timeouts. */
  hooks?: HookOptions;
  /** The audit log's retention (`--audit-days`) and clock. */
  audit?: AuditOptions;
  /** The change feed's retention (`--changes-days`), clock and how often subscribers' feed is looked at. */
  changes?: ChangeFeedOptions;
  /** Event streams' limits (`--event-streams`, `--event-streams-per-credential`), heartbeat and socket bounds. */
  events?: Omit<EventHubOptions, 'feed' | 'log'>;
  /** Sign-in through an OpenID Connect provider (`--oidc-issuer` and its flags), or none. */
  singleSignOn?: SingleSignOnConfig | null;
  /** Whether people may sign in with a password (default true; `--no-password-sign-in` turns it off). */
  passwordSignIn?: boolean;
  /** The origin browsers reach the server at behind a proxy (`--public-url`): the provider's redirect goes there. */
  publicUrl?: string | null;
}

/** A wired app and the services behind it. */
export interface QuireApp {
  app: Express;
  /**
   * What the HTTP server runs: the guards for every request, then the row routes or `app`. Serve
   * this, never `app` alone, which has neither the guards nor the row routes.
   */
  listener: RequestListener;
  services: Services;
}

/** Builds the Express app: the API under `/api` and the editor at `/`. */
export async function createApp(options: AppOptions): Promise<QuireApp> {
  const { database } = options;
  // Servers sharing a database see each other's content-type changes.
  // The site's locales, made below, are read again with the types: their changes move the same version.
  let reloadLocales: (() => Promise<void>) | null = null;
  const registry = new ContentTypeRegistry({
    repository: new ContentTypeRepository(database.db),
    followsOtherServers: database.sharedByServers,
    onReload: async () => {
      database.afterTypesChanged();
      await reloadLocales?.();
    },
  });
  await registry.reload();
  const { db, engine, runner } = database;
  // The read cache and the reads outside writes, made first: the kept schedules read through them.
  const committed = committedReads(db, runner);
  // What rows read show of their pending schedule, and what a row delete takes with it.
  const rowSchedules = new RowSchedules({ db, reads: committed?.reads });
  const retention = new RevisionRetention(options.revisions);
  // The change feed: every row write records its changes in its own transaction; it reads their
  // positions back only for the writes some hook takes (hooks are made just below).
  const changes = new ChangeFeedService({
    ...options.changes,
    db,
    engine,
    wantsCursors: (table: string): boolean => hooks.wants(table),
  });
  // Build hooks: their outbox is written inside every row write, and delivered after; each event
  // carries its change's cursor, so the feed's observer runs before theirs.
  const hooks = new HookService({ ...options.hooks, db, registry, cursorsOf: (log) => changes.cursorsOf(log) });
  // Every change to content tables goes through one write path the read cache sees; each row write
  // records its revisions, drops a deleted row's schedule, records its changes in the feed and
  // queues its hook events in its own transaction, in this order.
  const writes = new ContentWrites({
    db,
    runner,
    committed,
    observers: [revisionRecorder(retention), rowSchedules.onWrite, changes.onWrite, hooks.onWrite],
  });
  // The site's languages, kept in memory; servers sharing the database see each other's changes.
  // A change of them stores every localized table's values again, in its transaction.
  const locales = new LocaleService({
    db,
    writes,
    followsOtherServers: database.sharedByServers,
    values: localizedTableValues(engine),
    onReload: () => database.afterTypesChanged(),
    afterChange: async () => {
      await registry.reloadAfterCommit();
    },
  });
  await locales.load();
  if (database.sharedByServers) reloadLocales = () => locales.load();
  // Uploads and the media library, where there is somewhere to keep files; row reads carry their
  // images' alt text, pixel size and focal point from it.
  const images: ImageOptions = { ...DEFAULT_IMAGE_OPTIONS, ...options.images };
  // Uploads are re-encoded and variants made in one image process, below the server's priority.
  const imageProcess = new ImageProcess();
  const media = mediaStoreFor(database, images, imageProcess);
  const variants = media ? new ImageVariants(images.cacheDir ?? media.variantCacheDir, images, imageProcess) : null;
  // Crops of the media library's images centre on their focal points.
  if (variants) variants.focalPointOf = assetFocalPoints(db);
  const assets = media
    ? new AssetService({
        db,
        engine,
        store: media.store,
        sources: media.sources,
        registry,
        feed: changes,
        // A replaced or deleted file's variants go at once rather than waiting to be pruned.
        removeVariants: async (hash) => variants?.removeVariantsOf(hash),
      })
    : null;
  const rows = new RowService({
    db,
    engine,
    editorName: options.editorName,
    registry,
    writes,
    runner,
    decorators: assets ? [rowSchedules.decorate, assets.decorate] : [rowSchedules.decorate],
    extras: rowSchedules.extras,
    locales,
  });
  const revisions = new RevisionService({ db, engine, registry, rows, retention });
  // Scheduled status changes, applied as row writes.
  const schedules = new ScheduleService({
    ...options.scheduler,
    db,
    registry,
    rows,
    rowSchedules,
    editorName: options.editorName,
  });
  // Security events (sign-ins, account, token, hook and type changes), appended by the routes.
  const audit = new AuditService({ log: options.log, ...options.audit, db });
  const services: Services = {
    registry,
    rows,
    contentTypes: new ContentTypeService({ writes, registry, engine }),
    writes,
    revisions,
    schedules,
    hooks,
    audit,
    changes,
    // Open `GET /api/events` streams, fed by one read of the change feed per commit.
    events: new EventHub({ ...options.events, feed: changes, log: options.log }),
    locales,
    images: imageProcess,
  };
  const log = options.log ?? ((message, error) => console.error(message, error));

  await media?.store.sweepIncoming();
  // Uploads kept before the library (or copied in beside the database) become assets.
  await assets?.adoptStored();

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // The client's address (req.ip, see clientAddress) comes from X-Forwarded-For only through these.
  app.set('trust proxy', options.trustProxy?.length ? [...options.trustProxy] : false);
  // The guards run in the request listener, before any route: a foreign page or host is refused
  // before any other work; then accounts, API tokens and sessions: who is asking, and may they.
  const accountRepository = new AccountRepository(database.db, database.engine);
  const twoFactor = new TwoFactorService({ ...options.twoFactor, repository: new TwoFactorRepository(database.db) });
  const accounts = new AccountService({
    repository: accountRepository,
    sessionIdleMs: options.sessionIdleMs,
    requireTwoFactor: twoFactor.requirement,
    secondFactor: twoFactor,
  });
  const tokens = new TokenService({ repository: accountRepository });
  const authOptions = {
    accounts,
    tokens,
    registry,
    runToken: options.security?.token ?? null,
    editorName: options.editorName,
  };
  const auth = authGuard(authOptions);
  const guards = localhostGuards(options.security, auth);

  const api = express.Router();
  // ETag, Cache-Control: no-cache and 304 on every GET.
  api.use(conditionalGets());
  // Multipart uploads before the form/JSON parsers, which refuse every other body type.
  if (media && assets) {
    const uploadLimit = options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT;
    api.use(uploadRoutes(media.store, uploadLimit, assets));
    api.use(assetFileRoutes(assets, uploadLimit));
    api.use(unusedMediaRoutes(media.store, media.sources));
  } else {
    api.use(noMediaRoutes('Uploads are not available on an in-memory database: it has no folder to keep them in'));
  }
  const readBody = bodyReader({ bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT });
  api.use(bodyParsing(readBody));
  const limiter = new SignInLimiter({ limits: { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits } });
  // Before the password routes, which it answers for when password sign-in is off.
  api.use(
    singleSignOnRoutes({
      singleSignOn: options.singleSignOn
        ? new SingleSignOnService({ config: options.singleSignOn, accounts, repository: accountRepository })
        : null,
      passwordSignIn: options.passwordSignIn ?? true,
      publicUrl: options.publicUrl ?? null,
      audit,
      log,
    }),
  );
  api.use(
    authRoutes({
      accounts,
      limiter,
      loopbackOnly: options.security?.loopbackOnly ?? true,
      runToken: Boolean(options.security?.token),
      passwordSignIn: options.passwordSignIn ?? true,
      twoFactor,
      audit,
    }),
  );
  api.use(twoFactorRoutes(twoFactor, limiter, audit));
  api.use(accountRoutes(accounts, tokens, audit));
  api.use(auditRoutes(audit));
  api.use(changeRoutes(registry, changes));
  api.use(eventRoutes({ hub: services.events, registry, credentialHolds: credentialCheck(authOptions) }));
  api.use(describeRoutes(services));
  api.use(contentTypeRoutes(services));
  api.use(starterRoutes(new StarterService({ db, writes, registry, rows, engine }), options.editorName, audit));
  // Before the row routes: `/cms/:type/trash` is the trash, not a row.
  api.use(revisionRoutes(services, revisions));
  api.use(scheduleRoutes(services, schedules));
  api.use(hookRoutes(hooks, options.editorName, audit));
  if (assets) api.use(assetRoutes(assets));
  api.use(localeRoutes(locales, options.editorName, audit));
  api.use(notFoundHandler);
  app.use('/api', api);
  if (media) app.use('/media', mediaRoutes(media.store, variants));

  const editorDir = options.editorDir;
  if (editorDir && existsSync(join(editorDir, 'index.html'))) {
    app.use(editorHeaders, express.static(editorDir, { index: 'index.html', maxAge: 0 }));
    // Client-side routes (/news/123) load the editor, which reads the URL itself.
    app.get(/^\/(?!api(?:\/|$)).*/, (_req, res) => res.sendFile(join(editorDir, 'index.html')));
  }
  app.use(notFoundHandler);
  app.use(errorMiddleware({ log }));
  const listener = requestListener({
    app,
    guards,
    rows: rowRoutes(services, { readBody }),
    changeTokens: database.runner?.changeTokens,
    log,
  });
  return { app, listener, services };
}

/**
 * Where uploads live and what refers to them (see `QuireDb.media`), or null where there is nowhere;
 * every file its store receives goes through the image pipeline's checks (see `withImagePreparation`).
 */
export function mediaStoreFor(
  database: QuireDb,
  images: ImageOptions = DEFAULT_IMAGE_OPTIONS,
  imageProcess = new ImageProcess(),
): DatabaseMedia | null {
  const media = database.media();
  return media && { ...media, store: withImagePreparation(media.store, { ...images, images: imageProcess }) };
}
