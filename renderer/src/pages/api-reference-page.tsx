import { type ReactNode, useEffect, useState } from 'react';
import { Trans } from 'react-i18next';
import { useApi } from '../api/api-context.js';
import {
  type ApiDocument,
  type ApiOperation,
  curlLine,
  fieldsOf,
  operationsFor,
  operationsOn,
} from '../api/api-document.js';
import { describeError } from '../api/api-error.js';
import { useAuth } from '../api/auth-context.js';
import { ErrorState, LoadingState } from '../components/states.js';
import { useToast } from '../components/toasts.js';
import { Select } from '../components/ui/select.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useT } from '../i18n/use-t.js';

/** The paths every site uses besides its content types' own. */
const SHARED_PATHS = ['/cms-content', '/cms-content/{slug}', '/uploads', '/openapi.json', '/types.d.ts'];

/**
 * Settings › API: the API of this server for the selected content type, from its OpenAPI document
 * (rendered here, no outside service): each operation with a curl line to copy, the list
 * parameters, and the row's fields; links to the document and the TypeScript types.
 */
export function ApiReferencePage() {
  const t = useT('pages-api');
  useDocumentTitle(t('title'));
  const api = useApi();
  const [document, setDocument] = useState<ApiDocument | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [table, setTable] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    api.apiDocument(abort.signal).then(
      (loaded) => {
        setDocument(loaded);
        setTable((current) => current ?? loaded['x-quire-content-types'][0]?.table ?? null);
      },
      (error) => {
        if (!abort.signal.aborted) setProblem(describeError(error));
      },
    );
    return () => abort.abort();
  }, [api]);
  if (problem) return <ErrorState title={t('loadFailed')} message={problem} />;
  if (!document) return <LoadingState label={t('loading')} />;
  const type = document['x-quire-content-types'].find((candidate) => candidate.table === table) ?? null;
  return (
    <div className="page api-reference">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">{t('common:settings')}</p>
          <h1 className="page-title">{t('title')}</h1>
          <p className="page-subtitle">
            <Trans
              t={t}
              i18nKey="intro"
              values={{ version: document.info.version }}
              components={{
                openapi: <DocumentLink href="/api/openapi.json" />,
                types: <DocumentLink href="/api/types.d.ts" />,
              }}
            />
          </p>
        </div>
        <div className="api-type-picker">
          <span id="api-type-label">{t('type')}</span>
          <Select
            aria-labelledby="api-type-label"
            value={table ?? ''}
            options={document['x-quire-content-types'].map((candidate) => ({
              value: candidate.table,
              label: candidate.title,
            }))}
            onChange={setTable}
          />
        </div>
      </header>
      {type && (
        <>
          <Operations document={document} operations={operationsFor(document, type.table)} title={type.title} />
          <Fields document={document} name={type.name} title={t('rowOf', { title: type.title, name: type.name })} />
        </>
      )}
      <Operations document={document} operations={operationsOn(document, SHARED_PATHS)} title={t('everySite')} />
    </div>
  );
}

/** A link to one of the server's API documents, in a new tab; its text comes from the catalog. */
function DocumentLink({ href, children }: { href: string; children?: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}

function Operations({
  document,
  operations,
  title,
}: {
  document: ApiDocument;
  operations: ApiOperation[];
  title: string;
}) {
  const t = useT('pages-api');
  const { me } = useAuth();
  const notify = useToast();
  // Where a request needs a session or a token, a build sends a token.
  const withToken = me.via !== 'local';
  const apiBase = `${window.location.origin}/api`;
  const copy = (line: string) =>
    navigator.clipboard.writeText(line).then(
      () => notify('success', t('copied')),
      () => notify('error', t('copyFailed')),
    );
  return (
    <section className="api-section" aria-label={title}>
      <h2 className="card-title">{title}</h2>
      {operations.map((operation) => {
        const line = curlLine(document, operation, { apiBase, withToken });
        return (
          <article key={`${operation.method} ${operation.path}`} className="api-operation">
            <h3 className="api-operation-title">
              <span className={`api-method api-method-${operation.method.toLowerCase()}`}>{operation.method}</span>
              {/* i18n-exempt: an API path */}
              <code>/api{operation.path}</code>
              <span className="api-summary">{operation.summary}</span>
            </h3>
            <div className="api-curl">
              <code>{line}</code>
              <button type="button" className="button button-small" onClick={() => copy(line)}>
                {t('common:actions.copy')}
              </button>
            </div>
            {operation.query.length > 0 && (
              <ul className="api-parameters">
                {operation.query.map((parameter) => (
                  <li key={parameter.name}>
                    <code>{parameter.name}</code> <span className="api-type">{parameter.type}</span>{' '}
                    {parameter.description}
                  </li>
                ))}
              </ul>
            )}
            <p className="api-statuses">{t('answers', { statuses: operation.statuses.join(', ') })}</p>
          </article>
        );
      })}
    </section>
  );
}

function Fields({ document, name, title }: { document: ApiDocument; name: string; title: string }) {
  const t = useT('pages-api');
  return (
    <section className="api-section" aria-label={title}>
      <h2 className="card-title">{title}</h2>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('columns.field')}</th>
            <th scope="col">{t('columns.type')}</th>
            <th scope="col">{t('columns.about')}</th>
          </tr>
        </thead>
        <tbody>
          {fieldsOf(document, name).map((field) => (
            <tr key={field.name}>
              <td>
                <code>{field.name}</code>
              </td>
              <td className="api-type">{field.type}</td>
              <td>{field.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
