import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { EditorApp } from './app.js';
import { languageReady } from './i18n/i18n-instance.js';
import { applyStoredTheme } from './theme/use-theme.js';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const container = root;
// The chosen theme is on <html> before anything renders, so a dark choice never flashes light.
applyStoredTheme();
// The first render waits for the language this machine starts in (a local chunk, when not English).
void languageReady.then(() =>
  createRoot(container).render(
    <StrictMode>
      <EditorApp />
    </StrictMode>,
  ),
);
