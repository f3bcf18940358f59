import net from 'node:net';

/** A TCP proxy that a test can cut (pause) and restore (resume) to make a server unreachable. */
export interface TcpProxy {
  port: number;
  url(scheme: string): string;
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to host:port. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let listenPort = 0;

  // Resuming a proxy that already listens does nothing (a second server would fail on the port and leak the first).
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      server = net.createServer((client) => {
        const upstream = net.connect({ host, port });
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(listenPort, '127.0.0.1', () => {
        listenPort = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });

  const pause = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });

  await listen();
  return {
    port: listenPort,
    url: (scheme) => `${scheme}://127.0.0.1:${listenPort}`,
    pause,
    resume: listen,
    close: pause,
  };
}
