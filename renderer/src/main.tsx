import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { EditorApp } from './app.js';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <EditorApp />
  </StrictMode>,
);
