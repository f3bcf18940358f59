import { createSocket, type RemoteInfo } from 'node:dgram';

/** What the test DNS server answers for one name: TXT values, IPv4 addresses, or silence (a timeout). */
export interface LocalDnsZone {
  txt?: string[];
  a?: string[];
  silent?: boolean;
}

export interface LocalDnsServer {
  /** `127.0.0.1:<port>`, for DOMAIN_PROOF_DNS_SERVERS. */
  address: string;
  /** Sets (or replaces) what a name answers; names are matched in lower case. */
  set(name: string, zone: LocalDnsZone): void;
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_TXT = 16;

/**
 * A DNS server on 127.0.0.1 for tests of the ownership proof (ADR 0040), answering A and TXT queries over UDP from an
 * in-memory zone (node:dgram, no dependency): unknown names are NXDOMAIN, known names without the asked type answer
 * no data, and a `silent` name is never answered. `port` 0 takes a free one (the e2e system names a fixed one).
 */
export async function startLocalDnsServer(port = 0): Promise<LocalDnsServer> {
  const zones = new Map<string, LocalDnsZone>();
  const socket = createSocket('udp4');
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const parsed = parseQuestion(query);
    if (!parsed) return;
    const zone = zones.get(parsed.name.toLowerCase());
    if (zone?.silent) return;
    const answers = !zone ? [] : parsed.type === TYPE_A ? (zone.a ?? []).map(aRecord) : parsed.type === TYPE_TXT ? (zone.txt ?? []).map(txtRecord) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180 | (zone ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const question = query.subarray(12, parsed.end);
    const body = answers.map((rdata) => Buffer.concat([Buffer.from([0xc0, 12]), u16(parsed.type), u16(1), u32(60), u16(rdata.length), rdata]));
    socket.send(Buffer.concat([header, question, ...body]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    set: (name, zone) => void zones.set(name.toLowerCase(), zone),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function parseQuestion(query: Buffer): { name: string; type: number; end: number } | null {
  if (query.length < 17) return null;
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length && query[offset] !== 0) {
    const length = query[offset];
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += length + 1;
  }
  if (offset + 5 > query.length) return null;
  return { name: labels.join('.'), type: query.readUInt16BE(offset + 1), end: offset + 5 };
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const aRecord = (address: string) => Buffer.from(address.split('.').map(Number));
// A TXT value longer than 255 bytes goes as several character strings, as real DNS does.
const txtRecord = (value: string) => {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
};
