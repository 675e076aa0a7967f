import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/use-t.js';

type Render = (source: string) => DocumentFragment;

let loading: Promise<Render> | null = null;

/** Loads the Markdown renderer (its own chunk) once, the first time a preview is shown. */
function loadRenderer(): Promise<Render> {
  loading ??= import('./markdown-render.js').then((module) => module.renderMarkdown);
  return loading;
}

/**
 * The rendered, sanitized preview of a Markdown text. The nodes come from DOMPurify as a fragment
 * (no HTML string is ever assigned to the page); typing stays responsive because the preview
 * follows a deferred copy of the text.
 */
export function MarkdownPreview({ source, label }: { source: string; label: string }) {
  const t = useT('fields');
  const [render, setRender] = useState<Render | null>(null);
  const [failed, setFailed] = useState(false);
  const target = useRef<HTMLDivElement>(null);
  const deferred = useDeferredValue(source);

  useEffect(() => {
    let live = true;
    loadRenderer().then(
      (loaded) => live && setRender(() => loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (render && target.current) target.current.replaceChildren(render(deferred));
  }, [render, deferred]);

  return (
    <section className="markdown-preview" aria-label={t('image.preview', { label })}>
      {failed ? (
        <p className="muted">{t('markdown.previewFailed')}</p>
      ) : !render ? (
        <p className="muted">{t('markdown.previewLoading')}</p>
      ) : deferred.trim() === '' ? (
        <p className="markdown-empty">{t('markdown.previewEmpty')}</p>
      ) : null}
      <div ref={target} className="prose" hidden={!render || deferred.trim() === ''} />
    </section>
  );
}
