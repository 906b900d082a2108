// First: before any schema is built (see the module).
import "./lib/zod-jitless";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import "./styles/global.css";
import { App } from "./app/app";
import { captureInstallPrompt } from "./lib/install-capture";
import { registerServiceWorker } from "./lib/service-worker";
import { syncSessionAcrossTabs } from "./lib/session-store";

const container = document.getElementById("root");
if (!container) throw new Error("Missing #root element in index.html");

syncSessionAcrossTabs();
registerServiceWorker();
captureInstallPrompt();

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
