import { useEffect, useState } from 'react';
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
import { useDocumentTitle } from '../hooks/use-document-title.js';

/** The paths every site uses besides its content types' own. */
const SHARED_PATHS = ['/cms-content', '/cms-content/{slug}', '/uploads', '/openapi.json', '/types.d.ts'];

/**
 * Settings › API: the API of this server for the selected content type, from its OpenAPI document
 * (rendered here, no outside service): each operation with a curl line to copy, the list
 * parameters, and the row's fields; links to the document and the TypeScript types.
 */
export function ApiReferencePage() {
  useDocumentTitle('API');
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
  if (problem) return <ErrorState title="Couldn’t load the API description" message={problem} />;
  if (!document) return <LoadingState label="Loading the API description…" />;
  const type = document['x-quire-content-types'].find((candidate) => candidate.table === table) ?? null;
  return (
    <div className="page api-reference">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">Settings</p>
          <h1 className="page-title">API</h1>
          <p className="page-subtitle">
            What a site’s build can ask this server, described by its{' '}
            <a href="/api/openapi.json" target="_blank" rel="noreferrer">
              OpenAPI document
            </a>{' '}
            (version {document.info.version}); types for TypeScript in{' '}
            <a href="/api/types.d.ts" target="_blank" rel="noreferrer">
              types.d.ts
            </a>
            .
          </p>
        </div>
        <label className="api-type-picker">
          <span>Content type</span>
          <select className="select" value={table ?? ''} onChange={(event) => setTable(event.target.value)}>
            {document['x-quire-content-types'].map((candidate) => (
              <option key={candidate.table} value={candidate.table}>
                {candidate.title}
              </option>
            ))}
          </select>
        </label>
      </header>
      {type && (
        <>
          <Operations document={document} operations={operationsFor(document, type.table)} title={type.title} />
          <Fields document={document} name={type.name} title={`A row of ${type.title} (${type.name})`} />
        </>
      )}
      <Operations document={document} operations={operationsOn(document, SHARED_PATHS)} title="Every site" />
    </div>
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
  const { me } = useAuth();
  const notify = useToast();
  // Where a request needs a session or a token, a build sends a token.
  const withToken = me.via !== 'local';
  const apiBase = `${window.location.origin}/api`;
  const copy = (line: string) =>
    navigator.clipboard.writeText(line).then(
      () => notify('success', 'Copied the curl line'),
      () => notify('error', 'Could not copy: select the line and copy it'),
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
              <code>/api{operation.path}</code>
              <span className="api-summary">{operation.summary}</span>
            </h3>
            <div className="api-curl">
              <code>{line}</code>
              <button type="button" className="button button-small" onClick={() => copy(line)}>
                Copy
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
            <p className="api-statuses">Answers: {operation.statuses.join(', ')}</p>
          </article>
        );
      })}
    </section>
  );
}

function Fields({ document, name, title }: { document: ApiDocument; name: string; title: string }) {
  return (
    <section className="api-section" aria-label={title}>
      <h2 className="card-title">{title}</h2>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">About</th>
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
