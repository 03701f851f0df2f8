import { commandName } from '../parsing/command-facts.js';
import { segmentsRunning } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';

/**
 * Deletions through HTTP APIs (curl, wget, HTTPie): `DELETE` on a search engine's indexes, a broker's
 * queues, a SaaS account's resources. A local development server's own API is the agent's to test; the
 * admin APIs of data stores, wildcards and remote services are not.
 */

/** Ports of data stores' and gateways' admin APIs (Elasticsearch/OpenSearch, Meilisearch, Kong, CouchDB, Consul, RabbitMQ, NATS monitoring, MinIO, Qdrant, InfluxDB, Solr, Typesense, Vault). */
const ADMIN_PORTS = new Set(['9200', '9201', '7700', '8001', '5984', '8500', '15672', '8222', '9000', '9001', '6333', '8086', '8983', '8108', '8200']);
const LOCAL_HOST = /^(?:localhost|127(?:\.\d+){3}|\[::1\]|0\.0\.0\.0|host\.docker\.internal)$/i;
/** Paths that destroy in bulk whatever the method says: Elasticsearch's _delete_by_query, Jenkins' doDelete. */
const DESTRUCTIVE_PATH = /\/(?:_delete_by_query|doDelete|_all|\*)(?:[/?]|$)|\/(?:purge|truncate|flush(?:all)?|drop)(?:[/?]|$)/i;

interface Request {
  method: string;
  url: string;
}

const HTTPIE = new Set(['http', 'https', 'xh', 'xhs']);
const HTTP_CLIENTS = new Set(['curl', 'wget', ...HTTPIE]);

function requestOf(segment: ShellSegment): Request | null {
  const cmd = commandName(segment);
  const args = segment.argv.slice(1);
  let method = '';
  let url = '';
  if (cmd === 'curl') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '-X' || a === '--request') method = args[++i] ?? '';
      else if (/^-X./.test(a)) method = a.slice(2);
      else if (a.startsWith('--request=')) method = a.slice('--request='.length);
      else if (!a.startsWith('-') && !url && /^(?:https?:\/\/|localhost|\d|\[|[\w.-]+:\d)/.test(a)) url = a;
      else if (/^-[HdoueFAbcEmT]$|^--(?:header|data[\w-]*|output|user|form|cookie|max-time|connect-timeout|url)$/.test(a)) {
        if (a === '--url') url = args[i + 1] ?? url;
        i++;
      }
    }
    if (!method && args.some((a) => /^-[dF]$|^--data/.test(a))) method = 'POST';
  } else if (cmd === 'wget') {
    method = args.find((a) => a.startsWith('--method='))?.slice('--method='.length) ?? '';
    url = args.find((a) => /^https?:\/\//.test(a)) ?? '';
  } else if (HTTPIE.has(cmd)) {
    const words = args.filter((a) => !a.startsWith('-'));
    if (/^[A-Z]+$/.test(words[0] ?? '')) {
      method = words[0]!;
      url = words[1] ?? '';
    } else url = words[0] ?? '';
  } else return null;
  return url ? { method: (method || 'GET').toUpperCase(), url } : null;
}

function hostAndPort(url: string): { host: string; port: string; path: string } {
  const match = /^(?:[a-z]+:\/\/)?(?:[^@/]*@)?(\[[^\]]+\]|[^:/?#]*)(?::(\d+))?([^?#]*)/i.exec(url);
  return { host: match?.[1] || 'localhost', port: match?.[2] ?? '', path: match?.[3] ?? '' };
}

export const httpDeletionRule = builtInRule({
  name: 'http_api_deletion',
  description: 'HTTP DELETE (or a bulk-delete endpoint) against a remote API, a data store’s admin API or a wildcard needs approval; against a local development server it warns.',
  reads: 'action',
  check({ action }) {
    for (const segment of segmentsRunning(action.segments, HTTP_CLIENTS)) {
      const request = requestOf(segment);
      // A GET or HEAD reads, whatever its path says.
      if (!request || request.method === 'GET' || request.method === 'HEAD') continue;
      const { host, port, path } = hostAndPort(request.url);
      const bulk = DESTRUCTIVE_PATH.test(path);
      if (request.method !== 'DELETE' && !(bulk && request.method !== 'GET' && request.method !== 'HEAD')) continue;
      const local = LOCAL_HOST.test(host);
      const admin = ADMIN_PORTS.has(port);
      if (local && !admin && !bulk) {
        return {
          verdict: 'warn',
          score: 0.55,
          factors: ['http_deletion'],
          reason: `${request.method} ${request.url} deletes ${path || '/'} on the local server at ${host}${port ? `:${port}` : ''}; fine for testing your own API, not for data you need.`,
        };
      }
      return {
        verdict: 'require_approval',
        score: 0.85,
        factors: ['http_deletion', 'irreversible'],
        reason: `${request.method} ${request.url} deletes ${bulk ? 'in bulk ' : ''}through ${admin ? 'the admin API of a data store' : local ? 'a local service' : `the API of ${host}`}; indexes, queues or records deleted there are gone for good. A person must approve it.`,
        alternative: `Look first with GET (for example GET ${request.url.replace(/\/_delete_by_query.*$/, '/_count')}), and ask the user to delete.`,
      };
    }
    return null;
  },
});
