// Renderer entry: pick the transport (IPC inside Electron, HTTP + SSE in browser mode), restore
// the place from the address after "#", and mount the inspector.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickTransport } from './api/transport';
import { Root } from './app/Root';
import { createAppRouter } from './app/router';
import './theme/theme.css';
import './ui/ui.css';
import './app/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <Root transport={pickTransport(window)} router={createAppRouter()} />
  </StrictMode>,
);
