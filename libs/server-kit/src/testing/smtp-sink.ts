import net from 'node:net';

/** One message an SMTP client delivered. */
export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/** Credentials a client logged in with (AUTH PLAIN). */
export interface SmtpLogin {
  user: string;
  pass: string;
}

/** A minimal SMTP server on loopback that accepts everything (any login too) and keeps what it receives (tests only). */
export async function startSmtpSink(): Promise<{ port: number; messages: ReceivedMail[]; logins: SmtpLogin[]; close(): Promise<void> }> {
  const messages: ReceivedMail[] = [];
  const logins: SmtpLogin[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          messages.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          reply('250 OK queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') current.from = line.slice(10).trim();
        if (verb === 'RCPT') current.to.push(line.slice(8).trim());
        if (verb === 'DATA') inData = true;
        if (verb === 'AUTH') {
          const [, method, initial] = line.split(' ');
          if (method?.toUpperCase() === 'PLAIN' && initial) {
            const [, user = '', pass = ''] = Buffer.from(initial, 'base64').toString('utf8').split('\0');
            logins.push({ user, pass });
          }
          reply('235 Authentication successful');
          continue;
        }
        if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
          return;
        }
        if (verb === 'EHLO') {
          // Offers AUTH PLAIN, so a client with credentials logs in (and the test sees which).
          reply('250-sink');
          reply('250 AUTH PLAIN');
          continue;
        }
        reply(verb === 'HELO' ? '250 sink' : verb === 'DATA' ? '354 End data with <CR><LF>.<CR><LF>' : '250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    messages,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
