import { validationError, type FieldProblem } from '../errors/api-error.js';
import { DEMO_CLIENT_ID } from '../oauth/demo-client.js';
import { MAX_CLIENTS, oauthClientProblem } from '../oauth/registration.js';
import type { Account } from '../store/account.js';
import type { Steps } from './steps.js';
import type { AccountSnapshot, SimulationSnapshot } from './snapshot-schema.js';

/**
 * What a restore checks beyond each record's shape: that every reference resolves (a slug to
 * its target, a deliverable to its build, a token to its grant, ...) and that OAuth clients
 * obey the registration rules. A record the API could never have made would otherwise load and
 * break later: a slug held by no target answers 409 for good, a `javascript:` redirect URI is
 * followed. The first problems found are reported together, each with its path.
 */
const MAX_PROBLEMS = 10;

class Problems {
  readonly list: FieldProblem[] = [];
  add(path: string, message: string): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push({ path, message });
  }
  get full(): boolean {
    return this.list.length >= MAX_PROBLEMS;
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw validationError(this.list);
  }
}

/** Every account's records against the restored account built aside (its collections index them by id), an account a step. */
export function* assertAccountReferences(saved: AccountSnapshot[], restored: Account[]): Steps<void> {
  const problems = new Problems();
  for (const [i, account] of saved.entries()) {
    if (problems.full) break;
    checkAccount(account, restored[i] as Account, `body.accounts[${i}]`, problems);
    yield;
  }
  problems.throwIfAny();
}

function checkAccount(saved: AccountSnapshot, account: Account, at: string, problems: Problems): void {
  saved.keys.entries.forEach(([, key], j) => {
    for (const field of ['rotatedFromId', 'replacedById'] as const) {
      const other = key[field];
      if (other !== null && !account.keys.get(other)) problems.add(`${at}.keys.entries[${j}][1].${field}`, 'names no key of this account');
    }
  });
  saved.transactions.entries.forEach(([, transaction], j) => {
    if (transaction.buildId !== null && !account.builds.get(transaction.buildId)) problems.add(`${at}.transactions.entries[${j}][1].buildId`, 'names no build of this account');
  });
  checkSlugs(saved, account, at, problems);
  saved.library.entries.forEach(([, item], j) => {
    if (!account.targets.get(item.targetId)) problems.add(`${at}.library.entries[${j}][1].targetId`, 'names no target of this account (a target takes its library with it)');
  });
  saved.builds.entries.forEach(([, build], j) => {
    if (build.accountId !== saved.id) problems.add(`${at}.builds.entries[${j}][1].accountId`, 'must be the id of the account that holds it');
  });
  checkDeliverables(saved, account, at, problems);
  saved.shares.entries.forEach(([, share], j) => {
    if (!account.deliverables.has(share.deliverableId)) problems.add(`${at}.shares.entries[${j}][1].deliverableId`, 'names no deliverable of this account');
  });
  saved.audio.entries.forEach(([, audio], j) => {
    if (account.deliverables.get(audio.deliverableId)?.id !== audio.buildId) {
      problems.add(`${at}.audio.entries[${j}][1].deliverableId`, 'must name a deliverable of this account, of the build in buildId');
    }
  });
  saved.audioByDeliverableVoice.forEach(([key, audioId], j) => {
    const audio = account.audio.get(audioId);
    if (!audio || key !== `${audio.deliverableId}:${audio.voice}`) problems.add(`${at}.audioByDeliverableVoice[${j}]`, 'must pair "<deliverableId>:<voice>" with the audio made for them');
  });
  if (saved.audioByDeliverableVoice.length !== saved.audio.entries.length) {
    problems.add(`${at}.audioByDeliverableVoice`, 'must index every audio of the account once');
  }
  saved.idempotency.forEach(([, buildId], j) => {
    if (!account.builds.get(buildId)) problems.add(`${at}.idempotency[${j}][1]`, 'names no build of this account');
  });
  saved.purchaseIdempotency.forEach(([, transactionId], j) => {
    if (!account.transactions.get(transactionId)) problems.add(`${at}.purchaseIdempotency[${j}][1]`, 'names no transaction of this account');
  });
  saved.pendingRefunds.forEach((refund, j) => {
    if (!account.builds.get(refund.buildId)) problems.add(`${at}.pendingRefunds[${j}].buildId`, 'names no build of this account');
  });
}

/** Each target holds its slug, and the slug index holds exactly those: a stray slug would refuse its name for good. */
function checkSlugs(saved: AccountSnapshot, account: Account, at: string, problems: Problems): void {
  const slugs = new Set<string>();
  saved.slugs.forEach(([slug, targetId], j) => {
    if (slugs.has(slug)) problems.add(`${at}.slugs[${j}][0]`, 'is listed twice');
    slugs.add(slug);
    if (account.targets.get(targetId)?.slug !== slug) problems.add(`${at}.slugs[${j}]`, 'must pair a slug with the target that has it');
  });
  saved.targets.entries.forEach(([, target], j) => {
    if (!slugs.has(target.slug)) problems.add(`${at}.targets.entries[${j}][1].slug`, 'is missing from slugs');
  });
}

/** Each page of each build has its deliverable, and every deliverable is a page of its build. */
function checkDeliverables(saved: AccountSnapshot, account: Account, at: string, problems: Problems): void {
  saved.deliverables.forEach(([deliverableId, ref], j) => {
    if (account.builds.get(ref.buildId)?.deliverableIds[ref.pageIndex] !== deliverableId) {
      problems.add(`${at}.deliverables[${j}]`, 'must name a build of this account and the page that deliverable is');
    }
  });
  let pages = 0;
  for (const [, build] of saved.builds.entries) pages += build.deliverableIds.length;
  if (account.deliverables.size !== pages || saved.deliverables.length !== pages) {
    problems.add(`${at}.deliverables`, `must list each page of each build once (${pages} in all)`);
  }
}

/**
 * OAuth records: clients as registration accepts them (and no more of them than it admits),
 * every client, account, key and grant they name present, every redirect URI one of its
 * client's. A code's `grantId` is not required to resolve: grants are let go by their table's
 * cap, and a redeemed code keeps the id only to revoke that grant should it be replayed.
 */
export function assertOAuthReferences(snapshot: SimulationSnapshot): void {
  const problems = new Problems();
  const { clients, pending, codes, grants, accessTokens, refreshTokens } = snapshot.oauth;
  const keysOf = new Map(snapshot.accounts.map((a) => [a.id, new Set(a.keys.entries.map(([, key]) => key.id))]));
  const clientUris = new Map<string, Set<string>>();
  clients.forEach((client, i) => {
    const at = `body.oauth.clients[${i}]`;
    if (clientUris.has(client.clientId)) problems.add(`${at}.clientId`, 'names a client twice');
    clientUris.set(client.clientId, new Set(client.redirectUris));
    const problem = oauthClientProblem(client);
    if (problem) problems.add(at, `would be refused by registration: ${problem}`);
    else if (client.clientName.trim() !== client.clientName || clientUris.get(client.clientId)!.size !== client.redirectUris.length) {
      problems.add(at, 'must be as registration keeps a client: its name trimmed, each redirect URI once');
    }
  });
  if (clientUris.size - (clientUris.has(DEMO_CLIENT_ID) ? 1 : 0) > MAX_CLIENTS) problems.add('body.oauth.clients', `holds more than the ${MAX_CLIENTS} clients registration admits`);
  const checkClient = (at: string, clientId: string, redirectUri: string) => {
    const uris = clientUris.get(clientId);
    if (!uris) problems.add(`${at}.clientId`, 'names no client');
    else if (!uris.has(redirectUri)) problems.add(`${at}.redirectUri`, 'must be one of its client\'s redirect URIs');
  };
  const checkKey = (at: string, accountId: string, keyId: string | undefined) => {
    const keys = keysOf.get(accountId);
    if (!keys) problems.add(`${at}.accountId`, 'names no account');
    else if (keyId !== undefined && !keys.has(keyId)) problems.add(`${at}.keyId`, 'names no key of its account');
  };
  pending.forEach((p, i) => checkClient(`body.oauth.pending[${i}]`, p.clientId, p.redirectUri));
  codes.forEach(([, code], i) => {
    checkClient(`body.oauth.codes[${i}][1]`, code.clientId, code.redirectUri);
    checkKey(`body.oauth.codes[${i}][1]`, code.accountId, code.keyId);
  });
  const grantIds = new Set<string>();
  grants.forEach((grant, i) => {
    const at = `body.oauth.grants[${i}]`;
    if (grantIds.has(grant.id)) problems.add(`${at}.id`, 'names a grant twice');
    grantIds.add(grant.id);
    checkKey(at, grant.accountId, grant.keyId);
    if (!clientUris.has(grant.clientId)) problems.add(`${at}.clientId`, 'names no client');
  });
  for (const [name, tokens] of [['accessTokens', accessTokens], ['refreshTokens', refreshTokens]] as const) {
    tokens.forEach(([, token], i) => {
      if (!grantIds.has(token.grantId)) problems.add(`body.oauth.${name}[${i}][1].grantId`, 'names no grant');
    });
  }
  problems.throwIfAny();
}
