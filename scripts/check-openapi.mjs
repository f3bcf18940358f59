// CI: the public API document is valid OpenAPI 3.1 and usable by others (ADR 0028, ADR 0079). It is generated from the
// route declarations in contracts (the ones the gateway serves), held to its own rules (every operation described and
// exemplified, answers and bodies named schemas, no shape twice, money typed: apiDocumentProblems), linted with
// Redocly's recommended rules (errors fail), and turned into a typed client with openapi-typescript whose use
// type-checks.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBuilt } from './lib/build.mjs';
import { ROOT } from './lib/system.mjs';

const OUT = join(ROOT, 'tmp', 'openapi');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/** Runs a tool, echoing its output; exits the check when it fails. */
function run(label, command, args) {
  console.log(`\n-- ${label}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`OpenAPI check failed: ${label}`);
    process.exit(1);
  }
}

// A use of the generated client: typed paths, bodies and answers; tsc fails if the document lost any of them.
const CLIENT_USE = `import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000/api' });

export async function useTheClient(token: string): Promise<number> {
  const login = await api.POST('/auth/login', { body: { login: 'buyer', password: 'secret-password' } });
  const accessToken: string | undefined = login.data?.access_token;
  const page = await api.GET('/listings', { params: { query: { category: 'SaaS', sort_by: 'price', page: 2 } } });
  const firstTitle: string | undefined = page.data?.listings[0]?.title;
  const bid = await api.POST('/bids', {
    body: { listing_id: '00000000-0000-4000-8000-000000000000', amount: 1000 },
    headers: { authorization: \`Bearer \${accessToken ?? token}\` },
  });
  const refused: string | undefined = typeof bid.error?.detail === 'string' ? bid.error.detail : undefined;
  // The stable code of RFC 9457's problem body: a client branches on it, never on the English detail.
  const outbid: boolean = bid.error?.code === 'bad_request' || bid.error?.code === 'conflict';
  const current: number | null | undefined = bid.data?.current_bid;
  const listing: components['schemas']['Listing'] | undefined = (await api.GET('/listings/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } })).data;
  return (firstTitle?.length ?? 0) + (refused?.length ?? 0) + (current ?? 0) + (outbid ? 1 : 0) + (listing?.current_bid ?? 0);
}
`;

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const { apiDocument, apiDocumentProblems } = loadBuilt('libs/contracts/dist/index.js');
const document = apiDocument();
writeFileSync(join(OUT, 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
console.log(`OpenAPI ${document.openapi}: ${operations} operations in ${Object.keys(document.paths).length} paths -> tmp/openapi/openapi.json`);

const problems = apiDocumentProblems(document);
console.log('\n-- the document\'s own rules (ADR 0079)');
for (const problem of problems) console.error(`  ${problem}`);
if (problems.length > 0) {
  console.error(`OpenAPI check failed: ${problems.length} rule(s) broken`);
  process.exit(1);
}
console.log(`every operation is described and exemplified; ${Object.keys(document.components.schemas).length} named schemas; no shape twice; money typed`);

run('redocly lint (recommended rules)', bin('redocly'), ['lint', '--extends=recommended', '--format=stylish', join(OUT, 'openapi.json')]);
run('openapi-typescript', bin('openapi-typescript'), [join(OUT, 'openapi.json'), '-o', join(OUT, 'schema.d.ts')]);
writeFileSync(join(OUT, 'client-use.ts'), CLIENT_USE);
writeFileSync(
  join(OUT, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], skipLibCheck: false, types: [] }, files: ['client-use.ts'] }),
);
run('the typed client type-checks', bin('tsc'), ['-p', join(OUT, 'tsconfig.json')]);
console.log('\nOpenAPI document: valid, linted, and its typed client type-checks.');
