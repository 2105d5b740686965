// Renderer entry: pick the transport (IPC inside Electron, HTTP + SSE in browser mode), restore
// the place from the URL hash, and mount the inspector.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickTransport } from './api/transport';
import { parseHash } from './app/location';
import { Root } from './app/Root';
import './theme/theme.css';
import './ui/ui.css';
import './app/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const link = parseHash(window.location.hash);
createRoot(container).render(
  <StrictMode>
    <Root transport={pickTransport(window)} initial={{ ...link.place, notice: link.problems.length > 0 ? link.problems.join(' ') : null }} />
  </StrictMode>,
);
