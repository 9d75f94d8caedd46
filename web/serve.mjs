// A tiny static file server for the demo page (no dependencies): WebGPU needs a
// secure context, which http://127.0.0.1 is and file:// is not.
//
//   node web/serve.mjs [PORT]      # then open http://127.0.0.1:PORT/
//
// The browser test imports serve() and listens on a free port.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wgsl': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// Serves web/ (index.html, src/, gen/) and nothing outside it; resolves with
// the listening server.
export function serve(port = 0, host = '127.0.0.1') {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    if (url.pathname.endsWith('/')) file = path.join(file, 'index.html');
    try {
      const body = await fs.readFile(file);
      res.writeHead(200, {
        'content-type': types[path.extname(file)] ?? 'application/octet-stream',
        // The WGSL in gen/ changes with every `make web`; never serve it stale.
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${url.pathname}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve(Number(process.argv[2] ?? 8000));
  const { address, port } = server.address();
  console.log(`wavekit browser demo: http://${address}:${port}/ (Ctrl-C stops)`);
}
